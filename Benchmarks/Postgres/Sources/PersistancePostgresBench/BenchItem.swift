import Foundation

/// One row of the data set, as the harness makes and checks it; each contender converts it
/// into its own record type before the clock starts.
struct BenchItem: Sendable, Equatable {
    var id: Int64
    var name: String
    var score: Double
    var created: Date
    var payload: Data

    /// The row inserted `index`-th (from 0): every field differs from one row to the next.
    /// The date is a multiple of 1/8 s: exact in binary and in whole milliseconds, so that it
    /// reads back exactly from TIMESTAMPTZ whatever a library rounds to (postgres-nio truncates
    /// to microseconds, Persistance keeps milliseconds, as on SQLite).
    init(index: Int) {
        id = 0
        name = "item \(index) of the benchmark"
        score = Double(index) * 0.25
        created = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) + Double(index % 8) / 8)
        payload = Data((0..<16).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) })
    }

    init(id: Int64, name: String, score: Double, created: Date, payload: Data) {
        self.id = id
        self.name = name
        self.score = score
        self.created = created
        self.payload = payload
    }

    /// The data set: `count` rows, without ids (the server generates them).
    static func dataset(count: Int) -> [BenchItem] {
        (0..<count).map(BenchItem.init(index:))
    }

    /// The data set as the table holds it after inserting it into an empty table whose
    /// identity starts at 1.
    static func stored(count: Int) -> [BenchItem] {
        dataset(count: count).enumerated().map { offset, item in
            var item = item
            item.id = Int64(offset + 1)
            return item
        }
    }
}
