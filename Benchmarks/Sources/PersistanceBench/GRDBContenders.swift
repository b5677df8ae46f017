#if SystemSQLite
import Foundation
import GRDB

// GRDB 7.10.0, used as its documentation shows: records conforming to FetchableRecord and
// PersistableRecord, a DatabaseQueue in WAL mode for one connection, a DatabasePool for
// concurrent reads, the query interface for the query workload (`grdb`, `grdb-index`,
// `grdb-codable`); and through its cached statements (`grdb-cached`, in
// GRDBCachedContender.swift). GRDB sets `synchronous = NORMAL` in WAL mode; every GRDB
// connection here is set to the run's level instead, like every other contender's.

/// What the benchmark needs of a GRDB record type.
protocol GRDBBenchRecord: FetchableRecord, PersistableRecord, BenchRowFields, Sendable {
    init(_ row: BenchRow)
    var benchRow: BenchRow { get }
}

/// A record with hand-written row decoding and encoding (`grdb`).
struct GRDBPlayer: GRDBBenchRecord {
    static let databaseTableName = "player"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
        static let age = Column("age")
        static let payload = Column("payload")
    }

    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?

    init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        score = row[Columns.score]
        age = row[Columns.age]
        payload = row[Columns.payload]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.score] = score
        container[Columns.age] = age
        container[Columns.payload] = payload
    }

    init(_ row: BenchRow) {
        (id, name, score, age, payload) = (row.id, row.name, row.score, row.age, row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

/// The same hand-written record, reading its columns by position (`grdb-index`,
/// `grdb-cached`): valid for the benchmark's statements, which all select
/// `id, name, score, age, payload` in that order.
struct GRDBIndexedPlayer: GRDBBenchRecord {
    static let databaseTableName = "player"

    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?

    init(row: Row) throws {
        id = row[0]
        name = row[1]
        score = row[2]
        age = row[3]
        payload = row[4]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
        container["age"] = age
        container["payload"] = payload
    }

    init(_ row: BenchRow) {
        (id, name, score, age, payload) = (row.id, row.name, row.score, row.age, row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

/// A Codable record: GRDB derives decoding and encoding (`grdb-codable`).
struct GRDBCodablePlayer: Codable, GRDBBenchRecord {
    static let databaseTableName = "player"

    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?

    init(_ row: BenchRow) {
        (id, name, score, age, payload) = (row.id, row.name, row.score, row.age, row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

/// The same record, stored in the concurrent writer's table.
struct GRDBLogRecord<Base: GRDBBenchRecord>: PersistableRecord {
    static var databaseTableName: String { Schema.writerTable }
    var base: Base

    func encode(to container: inout PersistenceContainer) throws {
        try base.encode(to: &container)
    }
}

/// A GRDB contender for one record type; the workloads are a protocol extension so that
/// each conforming type gets them specialized for its record type (see `PersistanceContender`).
/// The static requirements say how one operation reaches the database: the convenience API
/// by default (each call prepares its statement), the cached statements for `grdb-cached`.
protocol GRDBContender: Contender {
    associatedtype Record: GRDBBenchRecord
    var settings: ContenderSettings { get }

    static func fetchAll(_ db: Database) throws -> [Record]
    static func fetchCursor(_ db: Database) throws -> RecordCursor<Record>
    static func fetchOne(_ db: Database, id: Int64) throws -> Record?
    /// The rows of `Schema.query` below `threshold`.
    static func query(_ db: Database, below threshold: Double) throws -> [Record]
    /// Inserts `record` into `table` (`Schema.table` or `Schema.writerTable`).
    static func insert(_ record: Record, into table: String, _ db: Database) throws
    static func upsert(_ record: Record, _ db: Database) throws
}

struct GRDBRecordContender: GRDBContender {
    typealias Record = GRDBPlayer
    let name = "grdb"
    let settings: ContenderSettings
}

struct GRDBIndexedContender: GRDBContender {
    typealias Record = GRDBIndexedPlayer
    let name = "grdb-index"
    let settings: ContenderSettings
}

struct GRDBCodableContender: GRDBContender {
    typealias Record = GRDBCodablePlayer
    let name = "grdb-codable"
    let settings: ContenderSettings
}

/// The GRDB family of the contender registry.
func grdbContenders(_ settings: ContenderSettings) -> [any Contender] {
    [
        GRDBRecordContender(settings: settings), GRDBIndexedContender(settings: settings),
        GRDBCachedContender(settings: settings), GRDBCodableContender(settings: settings),
    ]
}

// The convenience API: what GRDB's documentation shows.
extension GRDBContender {
    static func fetchAll(_ db: Database) throws -> [Record] {
        try Record.fetchAll(db)
    }

    static func fetchCursor(_ db: Database) throws -> RecordCursor<Record> {
        try Record.fetchCursor(db)
    }

    static func fetchOne(_ db: Database, id: Int64) throws -> Record? {
        try Record.fetchOne(db, key: id)
    }

    static func query(_ db: Database, below threshold: Double) throws -> [Record] {
        try Record
            .filter(Column("score") < threshold && Column("age") != nil)
            .order(Column("score").desc)
            .limit(Schema.queryLimit)
            .fetchAll(db)
    }

    static func insert(_ record: Record, into table: String, _ db: Database) throws {
        if table == Record.databaseTableName {
            try record.insert(db)
        } else {
            try GRDBLogRecord(base: record).insert(db)
        }
    }

    static func upsert(_ record: Record, _ db: Database) throws {
        try record.upsert(db)
    }
}

extension GRDBContender {
    func supports(_ workload: Workload) -> Bool {
        switch workload {
        // GRDB's SQL-text query is `grdb-cached`'s `query`.
        case .insertEncrypted, .fetchEncrypted, .dao, .querySQL: false
        case .writeTransaction(let access), .lookupTransaction(let access), .emptyRead(let access): access != .bare
        default: true
        }
    }

    /// WAL, and the 5-second busy timeout raw C and Persistance use (GRDB fails at once on
    /// a lock by default, e.g. while the previous contender's last connection checkpoints).
    private var configuration: Configuration {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// Sets the run's `synchronous` level on the writer (GRDB sets NORMAL when it enables
    /// WAL, after `prepareDatabase` runs, so it is set once the writer is open).
    private func setSynchronous(_ writer: some DatabaseWriter) throws {
        let level = settings.synchronous.rawValue
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(level)") }
    }

    private func queue(_ path: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try setSynchronous(queue)
        return queue
    }

    func synchronous(path: String) throws -> Synchronous {
        let queue = try queue(path)
        return try Synchronous(readBack: queue.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } ?? -1)
    }

    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration {
        let records = rows.map(Record.init)
        let queue = try queue(path)
        try queue.write { db in try db.execute(sql: Schema.createTable(Schema.table)) }
        return try measure {
            try queue.write { db in
                for record in records {
                    try Self.insert(record, into: Schema.table, db)
                }
            }
        }
    }

    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var records: [Record] = []
        let elapsed = try measure {
            records = try queue.read { db in try Self.fetchAll(db) }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func fetchCursor(path: String, rowCount: Int) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var records: [Record] = []
        records.reserveCapacity(rowCount)
        let elapsed = try measure {
            try queue.read { db in
                let cursor = try Self.fetchCursor(db)
                while let record = try cursor.next() {
                    records.append(record)
                }
            }
        }
        return (elapsed, Checksum(records))
    }

    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var records: [Record] = []
        records.reserveCapacity(ids.count)
        let elapsed = try measure {
            try queue.read { db in
                for id in ids {
                    if let record = try Self.fetchOne(db, id: id) {
                        records.append(record)
                    }
                }
            }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var results: [[Record]] = []
        results.reserveCapacity(thresholds.count)
        let elapsed = try measure {
            try queue.read { db in
                for threshold in thresholds {
                    results.append(try Self.query(db, below: threshold))
                }
            }
        }
        return (elapsed, Checksum(results.joined()))
    }

    func upsert(_ rows: [BenchRow], path: String) throws -> Duration {
        let records = rows.map(Record.init)
        let queue = try queue(path)
        return try measure {
            try queue.write { db in
                for record in records {
                    try Self.upsert(record, db)
                }
            }
        }
    }

    func writeTransactions(_ rows: [BenchRow], path: String, access: Access) throws -> Duration {
        let records = rows.map(Record.init)
        let queue = try queue(path)
        if access == .async {
            return try measure {
                try runBlocking {
                    for record in records {
                        try await queue.write { db in try Self.insert(record, into: Schema.table, db) }
                    }
                }
            }
        }
        return try measure {
            for record in records {
                try queue.write { db in try Self.insert(record, into: Schema.table, db) }
            }
        }
    }

    func lookupTransactions(_ ids: [Int64], path: String, access: Access) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var records: [Record] = []
        if access == .async {
            let found = Locked<[Record]>([])
            let elapsed = try measure {
                try runBlocking {
                    var records: [Record] = []
                    records.reserveCapacity(ids.count)
                    for id in ids {
                        if let record = try await queue.read({ db in try Self.fetchOne(db, id: id) }) {
                            records.append(record)
                        }
                    }
                    found.withLock { [records] in $0 = records }
                }
            }
            return (elapsed, Checksum(found.value.lazy.map(\.benchRow)))
        }
        records.reserveCapacity(ids.count)
        let elapsed = try measure {
            for id in ids {
                if let record = try queue.read({ db in try Self.fetchOne(db, id: id) }) {
                    records.append(record)
                }
            }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func emptyReads(count: Int, path: String, access: Access) throws -> Duration {
        let queue = try queue(path)
        if access == .async {
            return try measure {
                try runBlocking {
                    for _ in 0..<count { try await queue.read { _ in } }
                }
            }
        }
        return try measure {
            for _ in 0..<count { try queue.read { _ in } }
        }
    }

    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) async throws -> ConcurrentOutcome {
        var configuration = configuration
        configuration.maximumReaderCount = max(readers, configuration.maximumReaderCount)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try setSynchronous(pool)
        // Open the reader connections before the clock starts.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<readers {
                group.addTask { _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM player") } }
            }
            try await group.waitForAll()
        }
        let stop = Flag()
        let clock = ContinuousClock()
        return try await withThrowingTaskGroup(of: ConcurrentOutcome.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    let start = clock.now
                    var reads = 0
                    repeat {
                        let records = try await pool.read { db in try Self.fetchAll(db) }
                        guard records.count == settings.expectedRows else {
                            throw BenchError("\(name) reader: \(records.count) rows, expected \(settings.expectedRows)")
                        }
                        reads += 1
                    } while clock.now - start < settings.duration
                    return ConcurrentOutcome(reads: reads, readElapsed: clock.now - start, writtenRows: 0, writeElapsed: .zero)
                }
            }
            group.addTask {
                let start = clock.now
                var nextID: Int64 = 1
                var written = 0
                while !stop.isRaised {
                    let batch = Dataset.writerRows(nextID..<nextID + Int64(settings.writerBatch)).map(Record.init)
                    nextID += Int64(settings.writerBatch)
                    try await pool.write { db in
                        for record in batch { try Self.insert(record, into: Schema.writerTable, db) }
                    }
                    written += batch.count
                    if settings.writerPause > .zero { try await Task.sleep(for: settings.writerPause) }
                }
                return ConcurrentOutcome(reads: 0, readElapsed: .zero, writtenRows: written, writeElapsed: clock.now - start)
            }
            var total = ConcurrentOutcome(reads: 0, readElapsed: .zero, writtenRows: 0, writeElapsed: .zero)
            var readersLeft = readers
            while let outcome = try await group.next() {
                total.reads += outcome.reads
                total.readElapsed = max(total.readElapsed, outcome.readElapsed)
                total.writtenRows += outcome.writtenRows
                total.writeElapsed = max(total.writeElapsed, outcome.writeElapsed)
                if outcome.writeElapsed == .zero {
                    readersLeft -= 1
                    if readersLeft == 0 { stop.raise() }
                }
            }
            return total
        }
    }
}
#endif
