import Foundation
import PersistanceMacros

// Persistance with a record declared once with `@Table` (`persistance-macro`): the decoding
// by index, the typed encoding and the typed columns are generated from the struct. The
// workloads are the other Persistance contenders' (same table declaration, same calls); the
// query workload filters and orders with the generated typed columns.

/// The benchmark record, declared with the macro.
@Table("player")
struct PersistanceMacroPlayer: PersistanceBenchRecord {
    @Column(primaryKey: .plain) var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?
}

// In an extension, so that the struct keeps its memberwise initializer, which the
// generated decoding delegates to (as an application's record would).
extension PersistanceMacroPlayer {
    init(_ row: BenchRow) {
        self.init(id: row.id, name: row.name, score: row.score, age: row.age, payload: row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

struct PersistanceMacroContender: PersistanceContender {
    typealias Element = PersistanceMacroPlayer
    let name = "persistance-macro"
    let settings: ContenderSettings

    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        let players = Element.table
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        var results: [[Element]] = []
        results.reserveCapacity(thresholds.count)
        let columns = Element.columns
        let elapsed = try measure {
            try db.readSync { conn in
                for threshold in thresholds {
                    let records = try players.query()
                        .filter(columns.score < threshold && columns.age != nil)
                        .order(columns.score.desc)
                        .limit(Schema.queryLimit)
                        .fetchAll(conn)
                    results.append(records)
                }
            }
        }
        return (elapsed, Checksum(results.joined()))
    }
}
