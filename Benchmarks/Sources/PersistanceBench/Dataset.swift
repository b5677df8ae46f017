import Foundation

/// The fields of a benchmark row, read where it is stored: every contender's records and
/// raw C's rows are added to a checksum alike, with no copy of the row.
protocol BenchRowFields {
    var id: Int64 { get }
    var name: String { get }
    var score: Double { get }
    var age: Int64? { get }
    var payload: Data? { get }
}

/// One row of the benchmark table, as plain Swift values. Each contender converts these
/// to its own record type before the clock starts.
struct BenchRow: BenchRowFields, Sendable, Equatable {
    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?
}

/// The schema and SQL shared by every contender.
enum Schema {
    static let table = "player"
    /// The table the concurrent writer inserts into, so that the readers' row count stays fixed.
    static let writerTable = "player_log"

    static func createTable(_ name: String) -> String {
        "CREATE TABLE \(name) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL NOT NULL, age INTEGER, payload BLOB)"
    }

    /// The index that serves the query workload (`score < ? … ORDER BY score DESC`).
    static let createScoreIndex = "CREATE INDEX player_score ON player(score)"

    static func insert(into name: String) -> String {
        "INSERT INTO \(name) (id, name, score, age, payload) VALUES (?, ?, ?, ?, ?)"
    }

    static let selectAll = "SELECT id, name, score, age, payload FROM player"
    static let selectByID = "SELECT id, name, score, age, payload FROM player WHERE id = ?"
    /// The query workload: filtered, ordered, limited (an index range scan on `player_score`).
    static let query = "SELECT id, name, score, age, payload FROM player WHERE score < ? AND age IS NOT NULL ORDER BY score DESC LIMIT 10"
    static let queryLimit = 10
    /// The SQL text Persistance's query builder renders for the query workload (the
    /// `query-sql` workload runs it through the statement cache).
    static let queryBuilderSQL =
        #"SELECT * FROM "player" WHERE "score" < ? AND "age" IS NOT NULL ORDER BY "score" DESC LIMIT ?"#
    static let upsert = """
        INSERT INTO player (id, name, score, age, payload) VALUES (?, ?, ?, ?, ?) \
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, score = excluded.score, \
        age = excluded.age, payload = excluded.payload
        """
    /// The highest score in the data set, exclusive.
    static let scoreRange = 10_000.0
}

/// The deterministic data set of one run.
struct Dataset: Sendable {
    /// Rows with ids 1...n.
    let rows: [BenchRow]
    /// The same ids with other values: what the upsert workload writes (half of them exist).
    let upsertRows: [BenchRow]
    /// Ids looked up by the fetch-by-id workload.
    let lookupIDs: [Int64]
    /// Upper bounds of the query workload.
    let queryThresholds: [Double]
    /// The rows the write-transaction workloads insert, one per transaction.
    let transactionRows: [BenchRow]

    init(rows count: Int, lookups: Int, transactions: Int) {
        rows = (1...count).map { Dataset.row(Int64($0), variant: 0) }
        upsertRows = (1...count).map { Dataset.row(Int64($0), variant: 1) }
        transactionRows = Array(rows.prefix(transactions))
        var random = SplitMix64(seed: 0x5EED)
        lookupIDs = (0..<lookups).map { _ in Int64(random.next() % UInt64(count)) + 1 }
        // Thresholds above the lowest scores, so that every query finds its ten rows.
        queryThresholds = (0..<lookups).map { _ in
            100 + Double(random.next() % UInt64(Schema.scoreRange * 10 - 1000)) / 10
        }
    }

    /// Row `id` of the data set: a third of the ages and half of the payloads are NULL.
    static func row(_ id: Int64, variant: Int64) -> BenchRow {
        let spread = (id &* 7919 &+ variant &* 104_729) % Int64(Schema.scoreRange * 10)
        let payload: Data?
        if (id + variant) % 2 == 0 {
            payload = Data((0..<16).map { UInt8(truncatingIfNeeded: id &* 31 &+ $0 &+ variant) })
        } else {
            payload = nil
        }
        return BenchRow(
            id: id,
            name: variant == 0 ? "player-\(id)" : "updated-\(id)",
            score: Double(spread) / 10,
            age: id % 3 == 0 ? nil : 18 + (id + variant) % 60,
            payload: payload)
    }

    /// The rows ids `range` of the concurrent writer's table.
    static func writerRows(_ range: Range<Int64>) -> [BenchRow] {
        range.map { row($0, variant: 2) }
    }
}

/// A small, fast, deterministic pseudo-random generator (SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An order-independent digest of fetched rows, computed after the clock stops, to prove
/// every contender really read every column of every row.
struct Checksum: Equatable, CustomStringConvertible {
    private(set) var count = 0
    private var ids: Int64 = 0
    private var names: UInt64 = 0
    private var scores: Double = 0
    private var ages: Int64 = 0
    private var nullAges = 0
    private var payloads: UInt64 = 0
    private var nullPayloads = 0

    init() {}

    init<Rows: Sequence>(_ rows: Rows) where Rows.Element: BenchRowFields {
        for row in rows { add(row) }
    }

    mutating func add(_ row: some BenchRowFields) {
        add(id: row.id, name: row.name, score: row.score, age: row.age, payload: row.payload)
    }

    mutating func add(id: Int64, name: String, score: Double, age: Int64?, payload: Data?) {
        count += 1
        ids &+= id
        var hash: UInt64 = 0
        for byte in name.utf8 { hash = hash &* 31 &+ UInt64(byte) }
        names &+= hash
        scores += score
        if let age { ages &+= age } else { nullAges += 1 }
        if let payload {
            var hash: UInt64 = 0
            for byte in payload { hash = hash &* 131 &+ UInt64(byte) }
            payloads &+= hash
        } else {
            nullPayloads += 1
        }
    }

    static func == (lhs: Checksum, rhs: Checksum) -> Bool {
        lhs.count == rhs.count && lhs.ids == rhs.ids && lhs.names == rhs.names
            && abs(lhs.scores - rhs.scores) <= 1e-6 * max(1, abs(lhs.scores))
            && lhs.ages == rhs.ages && lhs.nullAges == rhs.nullAges
            && lhs.payloads == rhs.payloads && lhs.nullPayloads == rhs.nullPayloads
    }

    var description: String {
        "\(count) rows, ids \(ids), names \(names), scores \(scores), ages \(ages)/\(nullAges) null, payloads \(payloads)/\(nullPayloads) null"
    }
}

/// A benchmark failure: a contender returned wrong data, or could not run.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func expect(_ checksum: Checksum, equals expected: Checksum, _ what: @autoclosure () -> String) throws {
    guard checksum == expected else {
        throw BenchError("\(what()): wrong result\n  got      \(checksum)\n  expected \(expected)")
    }
}
