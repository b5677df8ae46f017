import Foundation
import Persistance

// Persistance as its README shows it: a `Table` declared once, records written and read
// through the table API (`insert(contentsOf:)`, `findAll`, `find(primaryKey:)`,
// `upsert(contentsOf:)`), the query builder for the query workload, and a `Database`
// (the executor) for every connection — `writeSync`/`readSync` for the single-connection
// workloads, async `read`/`write` from tasks for the concurrent one and the `-async`
// per-call workloads, and a bare `Connection` for the `-bare` ones.


/// What the benchmark needs of a Persistance record type.
protocol PersistanceBenchRecord: Record, BenchRowFields, Sendable {
    init(_ row: BenchRow)
    var benchRow: BenchRow { get }
}

/// A Codable record: the library's row encoder and decoder (`persistance`).
struct PersistancePlayer: PersistanceBenchRecord, Codable {
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

/// The same record with the hand-written fast path (`persistance-fast`): columns read by
/// index with `FastDecodableRecord`, written in table order with `encode(into:)`.
struct PersistanceFastPlayer: PersistanceBenchRecord, FastDecodableRecord {
    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?

    static let databaseColumns = ["id", "name", "score", "age", "payload"]

    init(statement: Statement, columns: [Int]) {
        id = statement.int64(at: columns[0])
        name = statement.string(at: columns[1])
        score = statement.double(at: columns[2])
        age = statement.isNull(at: columns[3]) ? nil : statement.int64(at: columns[3])
        payload = statement.isNull(at: columns[4]) ? nil : statement.data(at: columns[4])
    }

    func encode(into container: inout RecordValues) throws {
        let appended = try container.inColumnOrder(of: Self.self) { values in
            try values.append(id)
            try values.append(name)
            try values.append(score)
            try values.append(age)
            try values.append(payload)
        }
        if appended { return }
        try container.set(id, forColumn: "id")
        try container.set(name, forColumn: "name")
        try container.set(score, forColumn: "score")
        try container.set(age, forColumn: "age")
        try container.set(payload, forColumn: "payload")
    }

    init(_ row: BenchRow) {
        (id, name, score, age, payload) = (row.id, row.name, row.score, row.age, row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

/// A Persistance contender for one record type. The workloads are a protocol extension,
/// not methods of a generic struct, so that each conforming (non-generic) type gets them
/// specialized for its record type, as an application's own code would be: called through
/// `any Contender`, a generic struct's methods would run unspecialized, and the library's
/// `@inlinable` paths with them.
protocol PersistanceContender: Contender {
    associatedtype Element: PersistanceBenchRecord
    var settings: ContenderSettings { get }
}

struct PersistanceCodableContender: PersistanceContender {
    typealias Element = PersistancePlayer
    let name = "persistance"
    let settings: ContenderSettings
}

struct PersistanceFastContender: PersistanceContender {
    typealias Element = PersistanceFastPlayer
    let name = "persistance-fast"
    let settings: ContenderSettings
}

extension ContenderSettings {
    /// A Persistance configuration for the database at `path`, with `spinWait` applied.
    func persistanceConfiguration(path: String) -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration(path: path)
        if let spinWait { configuration.spinWait = spinWait }
        return configuration
    }
}

/// The `synchronous` level of a Persistance writer left at its defaults: the level every
/// contender of the run sets (read from a throwaway database in `directory`).
func persistanceDefaultSynchronous(directory: URL) throws -> Synchronous {
    let path = directory.appendingPathComponent("synchronous-probe.sqlite").path
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let db = try Database.openSync(configuration: DatabaseConfiguration(path: path))
    defer { try? db.closeSync() }
    return try db.writeSync { conn in try Synchronous(readBack: conn.fetchOne(Int.self, "PRAGMA synchronous") ?? -1) }
}

extension PersistanceContender {
    /// The benchmark table, declared as a user would (no index: the insert workloads
    /// measure inserts into the bare table, as for every contender).
    static func table(_ name: String) -> Table<Element> {
        Table<Element>(name, primaryKey: "id", columns: [
            .integer("id", primaryKey: .plain),
            .text("name", notNull: true),
            .real("score", notNull: true),
            .integer("age"),
            .blob("payload"),
        ])
    }

    private var players: Table<Element> { Self.table(Schema.table) }

    func supports(_ workload: Workload) -> Bool {
        switch workload {
        case .insertEncrypted, .fetchEncrypted: isEncryptionAvailable
        case .dao: false
        default: true
        }
    }

    /// Opens the database with the executor, its writer left at the library's `synchronous`
    /// default (which `settings.synchronous` is, see `persistanceDefaultSynchronous`).
    func open(_ path: String, key: String?, readers: Int? = nil) throws -> Database {
        var configuration = settings.persistanceConfiguration(path: path)
        if let key { configuration.secretKeys = [key] }
        return try Database.openSync(configuration: configuration, readerCount: readers)
    }

    /// Opens the reader connection (or, `onWriter`, makes the writer ready) before the clock
    /// starts by reading the schema only, as raw C's and GRDB's connections do when they
    /// open: the table's pages stay out of every contender's page cache until measured.
    func openConnection(of db: Database, onWriter: Bool = false) throws {
        let readSchema: (Connection) throws -> Int? = { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") }
        _ = onWriter ? try db.writeSync(readSchema) : try db.readSync(readSchema)
    }

    /// Opens a bare connection, without the executor, in WAL mode with `settings.synchronous`.
    private func openBare(_ path: String) throws -> Connection {
        let conn = try Connection(path: path)
        _ = try conn.fetchOne(String.self, "PRAGMA journal_mode = WAL")
        try conn.execute("PRAGMA synchronous = \(settings.synchronous.rawValue)")
        return conn
    }

    func synchronous(path: String) throws -> Synchronous {
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        let level = try db.writeSync { conn in try Synchronous(readBack: conn.fetchOne(Int.self, "PRAGMA synchronous") ?? -1) }
        let bare = try openBare(path)
        defer { try? bare.close() }
        let bareLevel = try Synchronous(readBack: bare.fetchOne(Int.self, "PRAGMA synchronous") ?? -1)
        guard bareLevel == level else {
            throw BenchError("\(name): the bare connection runs synchronous = \(bareLevel), the writer \(level)")
        }
        return level
    }

    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration {
        let records = rows.map(Element.init)
        let players = players
        let db = try open(path, key: key)
        defer { try? db.closeSync() }
        try db.writeSync { conn in try players.create(in: conn) }
        // The first reader opens alongside the writer (with SQLCipher, deriving its key):
        // let it finish before the clock starts, so that no other work is measured.
        try openConnection(of: db)
        return try measure {
            try db.writeSync { conn in
                _ = try players.insert(contentsOf: records, in: conn)
            }
        }
    }

    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum) {
        let players = players
        let db = try open(path, key: key)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        var records: [Element] = []
        let elapsed = try measure {
            records = try db.readSync { conn in try players.findAll(in: conn) }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func fetchCursor(path: String, rowCount: Int) throws -> (Duration, Checksum) {
        let players = players
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        var records: [Element] = []
        records.reserveCapacity(rowCount)
        let elapsed = try measure {
            try db.readSync { conn in
                let cursor = try players.query().fetchCursor(conn)
                while let record = try cursor.next() {
                    records.append(record)
                }
            }
        }
        return (elapsed, Checksum(records))
    }

    func writeTransactions(_ rows: [BenchRow], path: String, access: Access) throws -> Duration {
        let records = rows.map(Element.init)
        let players = players
        if access == .bare {
            let conn = try openBare(path)
            defer { try? conn.close() }
            return try measure {
                for record in records {
                    try conn.transaction(.immediate) { _ = try players.insert(record, in: conn) }
                }
            }
        }
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db, onWriter: true)
        if access == .async {
            return try measure {
                try runBlocking {
                    for record in records {
                        _ = try await db.write { conn in try players.insert(record, in: conn) }
                    }
                }
            }
        }
        return try measure {
            for record in records {
                _ = try db.writeSync { conn in try players.insert(record, in: conn) }
            }
        }
    }

    func lookupTransactions(_ ids: [Int64], path: String, access: Access) throws -> (Duration, Checksum) {
        let players = players
        var records: [Element] = []
        records.reserveCapacity(ids.count)
        if access == .bare {
            let conn = try openBare(path)
            defer { try? conn.close() }
            let elapsed = try measure {
                for id in ids {
                    if let record = try conn.transaction(.deferred, { try players.find(primaryKey: id, in: conn) }) {
                        records.append(record)
                    }
                }
            }
            return (elapsed, Checksum(records.lazy.map(\.benchRow)))
        }
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        let elapsed: Duration
        if access == .async {
            let found = Locked<[Element]>([])
            elapsed = try measure {
                try runBlocking {
                    var records: [Element] = []
                    records.reserveCapacity(ids.count)
                    for id in ids {
                        if let record = try await db.read({ conn in try players.find(primaryKey: id, in: conn) }) {
                            records.append(record)
                        }
                    }
                    found.withLock { [records] in $0 = records }
                }
            }
            records = found.value
        } else {
            elapsed = try measure {
                for id in ids {
                    if let record = try db.readSync({ conn in try players.find(primaryKey: id, in: conn) }) {
                        records.append(record)
                    }
                }
            }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func emptyReads(count: Int, path: String, access: Access) throws -> Duration {
        if access == .bare {
            let conn = try openBare(path)
            defer { try? conn.close() }
            return try measure {
                for _ in 0..<count { try conn.transaction {} }
            }
        }
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try db.readSync { _ in }
        if access == .async {
            return try measure {
                try runBlocking {
                    for _ in 0..<count { try await db.read { _ in } }
                }
            }
        }
        return try measure {
            for _ in 0..<count { try db.readSync { _ in } }
        }
    }

    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        let players = players
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        var records: [Element] = []
        records.reserveCapacity(ids.count)
        let elapsed = try measure {
            try db.readSync { conn in
                for id in ids {
                    if let record = try players.find(primaryKey: id, in: conn) {
                        records.append(record)
                    }
                }
            }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        let players = players
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        var results: [[Element]] = []
        results.reserveCapacity(thresholds.count)
        let score = Column("score")
        let age = Column("age")
        let elapsed = try measure {
            try db.readSync { conn in
                for threshold in thresholds {
                    let records = try players.query()
                        .filter(score < threshold && age != nil)
                        .order(score.desc)
                        .limit(Schema.queryLimit)
                        .fetchAll(conn)
                    results.append(records)
                }
            }
        }
        return (elapsed, Checksum(results.joined()))
    }

    /// The SQL the query builder renders for the query workload, run through the table's
    /// cached-statement API with the same values bound (threshold and limit).
    func querySQL(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        let players = players
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        var results: [[Element]] = []
        results.reserveCapacity(thresholds.count)
        let sql = Schema.queryBuilderSQL
        let elapsed = try measure {
            try db.readSync { conn in
                for threshold in thresholds {
                    results.append(try players.findAll(sql: sql, [threshold, Schema.queryLimit], in: conn))
                }
            }
        }
        return (elapsed, Checksum(results.joined()))
    }

    func upsert(_ rows: [BenchRow], path: String) throws -> Duration {
        let records = rows.map(Element.init)
        let players = players
        let db = try open(path, key: nil)
        defer { try? db.closeSync() }
        try openConnection(of: db)
        return try measure {
            try db.writeSync { conn in
                _ = try players.upsert(contentsOf: records, uniqueKey: "id", nilValues: .overwrite, in: conn)
            }
        }
    }

    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) async throws -> ConcurrentOutcome {
        let players = players
        let log = Self.table(Schema.writerTable)
        let db = try open(path, key: nil, readers: max(readers, Database.defaultReaderCount))
        defer { try? db.closeSync() }
        // Open the reader connections before the clock starts.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<readers {
                group.addTask { _ = try await db.read { conn in try players.count(in: conn) } }
            }
            try await group.waitForAll()
        }
        let stop = Flag()
        let clock = ContinuousClock()
        let name = name
        return try await withThrowingTaskGroup(of: ConcurrentOutcome.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    let start = clock.now
                    var reads = 0
                    repeat {
                        let records = try await db.read { conn in try players.findAll(in: conn) }
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
                    let batch = Dataset.writerRows(nextID..<nextID + Int64(settings.writerBatch)).map(Element.init)
                    nextID += Int64(settings.writerBatch)
                    try await db.write { conn in _ = try log.insert(contentsOf: batch, in: conn) }
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

/// The Persistance family of the contender registry.
func persistanceContenders(_ settings: ContenderSettings) -> [any Contender] {
    [
        PersistanceCodableContender(settings: settings), PersistanceFastContender(settings: settings),
        PersistanceMacroContender(settings: settings),
    ]
}
