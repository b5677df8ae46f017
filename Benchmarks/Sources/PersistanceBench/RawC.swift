import Foundation
#if SQLCipher
import CBenchSQLCipher
#else
import CBenchSQLite
#endif

// The baseline: the SQLite C API called directly, as a careful C programmer would — one
// prepared statement per loop, positional binds and column reads, text and blobs bound
// without copies (their buffers outlive the step), results read straight from SQLite's
// buffers into Swift values.

/// The engine the benchmark links, e.g. `3.40.1`.
var sqliteVersion: String { String(cString: sqlite3_libversion()) }

/// SQLCipher's version, when the build links SQLCipher (asked with a throwaway in-memory database).
var sqlcipherVersion: String? {
    #if SQLCipher
    guard let connection = try? RawConnection(path: ":memory:", key: nil, wal: false) else { return nil }
    var version: String?
    try? connection.each("PRAGMA cipher_version") { statement in
        version = String(cString: sqlite3_column_text(statement, 0))
    }
    return version
    #else
    return nil
    #endif
}

/// `SQLITE_STATIC`: the bound buffer stays valid until the statement is reset.
private let sqliteStatic: sqlite3_destructor_type? = nil

/// One `sqlite3*`, closed on deinit. Not Sendable: used by one thread.
final class RawConnection {
    let handle: OpaquePointer
    private var statements: [OpaquePointer] = []

    /// Opens (creating) the database at `path`, keys it when `key` is given, sets WAL mode
    /// and, when given, the `synchronous` level.
    init(path: String, key: String?, wal: Bool = true, synchronous: Synchronous? = nil) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw BenchError("raw-c: cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        if let key {
            #if SQLCipher
            let keyed = key.utf8CString.withUnsafeBufferPointer { bytes in
                sqlite3_key(db, bytes.baseAddress, Int32(bytes.count - 1))
            }
            guard keyed == SQLITE_OK else { throw BenchError("raw-c: sqlite3_key failed (\(keyed))") }
            #else
            throw BenchError("raw-c: encryption needs the SQLCipher trait")
            #endif
        }
        // Reads the schema: fails here on a wrong key.
        try execute("SELECT count(*) FROM sqlite_master")
        if wal {
            try execute("PRAGMA journal_mode = WAL")
        }
        if let synchronous {
            try execute("PRAGMA synchronous = \(synchronous.rawValue)")
        }
    }

    deinit {
        for statement in statements { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Prepares `sql`; the statement is finalized with the connection.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw BenchError("raw-c: cannot prepare \(sql): \(errorMessage)")
        }
        statements.append(statement)
        return statement
    }

    /// The `synchronous` level of the connection, read back.
    var synchronous: Synchronous {
        get throws {
            var level: Int?
            try each("PRAGMA synchronous") { level = Int(sqlite3_column_int64($0, 0)) }
            return try Synchronous(readBack: level ?? -1)
        }
    }

    /// Steps a prepared statement that returns no row (`BEGIN`, `COMMIT`) and resets it.
    @inline(__always)
    func run(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchError("raw-c: \(errorMessage)") }
    }

    /// Runs `sql`, ignoring any rows.
    func execute(_ sql: String) throws {
        try each(sql) { _ in }
    }

    /// Runs `sql` and calls `body` for each row.
    func each(_ sql: String, _ body: (OpaquePointer) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("raw-c: cannot prepare \(sql): \(errorMessage)")
        }
        defer { sqlite3_finalize(statement) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw BenchError("raw-c: \(sql): \(errorMessage)") }
            try body(statement)
        }
    }

    /// Binds the five columns of `row` to `statement` and steps it once; the text and blob
    /// are bound in place (`SQLITE_STATIC`) since they outlive the step.
    @inline(__always)
    func insert(_ row: BenchRow, with statement: OpaquePointer) throws {
        sqlite3_bind_int64(statement, 1, row.id)
        sqlite3_bind_double(statement, 3, row.score)
        if let age = row.age {
            sqlite3_bind_int64(statement, 4, age)
        } else {
            sqlite3_bind_null(statement, 4)
        }
        var name = row.name
        let code = name.withUTF8 { name -> Int32 in
            sqlite3_bind_text(statement, 2, name.baseAddress, Int32(name.count), sqliteStatic)
            if let payload = row.payload {
                return payload.withUnsafeBytes { payload in
                    sqlite3_bind_blob(statement, 5, payload.baseAddress, Int32(payload.count), sqliteStatic)
                    return sqlite3_step(statement)
                }
            } else {
                sqlite3_bind_null(statement, 5)
                return sqlite3_step(statement)
            }
        }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchError("raw-c: insert: \(errorMessage)") }
    }

    /// Inserts `rows` with one prepared statement, in one transaction.
    func insertAll(_ rows: some Collection<BenchRow>, sql: String) throws {
        let statement = try prepare(sql)
        try execute("BEGIN IMMEDIATE")
        for row in rows {
            try insert(row, with: statement)
        }
        try execute("COMMIT")
    }
}

/// Reads the current row of a `SELECT id, name, score, age, payload` statement.
@inline(__always)
func readRow(_ statement: OpaquePointer) -> BenchRow {
    let id = sqlite3_column_int64(statement, 0)
    let nameBytes = sqlite3_column_text(statement, 1)
    let nameCount = Int(sqlite3_column_bytes(statement, 1))
    let name = String(decoding: UnsafeBufferPointer(start: nameBytes, count: nameCount), as: UTF8.self)
    let score = sqlite3_column_double(statement, 2)
    let age: Int64? = sqlite3_column_type(statement, 3) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, 3)
    let payload: Data?
    if sqlite3_column_type(statement, 4) == SQLITE_NULL {
        payload = nil
    } else {
        let bytes = sqlite3_column_blob(statement, 4)
        let count = Int(sqlite3_column_bytes(statement, 4))
        payload = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    }
    return BenchRow(id: id, name: name, score: score, age: age, payload: payload)
}

/// Steps a one-row lookup once, appending its row to `rows` if it has one, and resets it:
/// the same one step as the libraries' `find` / `fetchOne`, which do not step a key lookup
/// to its end.
@inline(__always)
func readOne(_ statement: OpaquePointer, into rows: inout [BenchRow], connection: RawConnection) throws {
    let code = sqlite3_step(statement)
    if code == SQLITE_ROW {
        rows.append(readRow(statement))
    }
    sqlite3_reset(statement)
    guard code == SQLITE_ROW || code == SQLITE_DONE else { throw BenchError("raw-c: \(connection.errorMessage)") }
}

/// Steps `statement` to its end, appending each row to `rows`.
@inline(__always)
func readAll(_ statement: OpaquePointer, into rows: inout [BenchRow], connection: RawConnection) throws {
    while true {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW {
            rows.append(readRow(statement))
        } else if code == SQLITE_DONE {
            break
        } else {
            sqlite3_reset(statement)
            throw BenchError("raw-c: \(connection.errorMessage)")
        }
    }
    sqlite3_reset(statement)
}

/// The raw C contender (`raw-c`), the baseline of every ratio. It has no executor, so its
/// per-call workloads run on its one connection (`.sync`), with prepared `BEGIN` and
/// `COMMIT` statements, as a careful C programmer would.
struct RawCContender: Contender {
    let name = "raw-c"
    let settings: ContenderSettings

    func supports(_ workload: Workload) -> Bool {
        switch workload {
        case .upsert: sqlite3_libversion_number() >= 3_024_000 // ON CONFLICT … DO UPDATE
        case .insertEncrypted, .fetchEncrypted: isEncryptionAvailable
        case .writeTransaction(let access), .lookupTransaction(let access): access == .sync
        case .emptyRead, .dao: false
        default: true
        }
    }

    private func open(_ path: String, key: String? = nil) throws -> RawConnection {
        try RawConnection(path: path, key: key, synchronous: settings.synchronous)
    }

    func synchronous(path: String) throws -> Synchronous {
        try open(path).synchronous
    }

    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration {
        let connection = try open(path, key: key)
        try connection.execute(Schema.createTable(Schema.table))
        return try measure {
            try connection.insertAll(rows, sql: Schema.insert(into: Schema.table))
        }
    }

    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum) {
        let connection = try open(path, key: key)
        var rows: [BenchRow] = []
        let elapsed = try measure {
            let statement = try connection.prepare(Schema.selectAll)
            try readAll(statement, into: &rows, connection: connection)
        }
        return (elapsed, Checksum(rows))
    }

    func fetchCursor(path: String, rowCount: Int) throws -> (Duration, Checksum) {
        let connection = try open(path)
        var rows: [BenchRow] = []
        rows.reserveCapacity(rowCount)
        let elapsed = try measure {
            let statement = try connection.prepare(Schema.selectAll)
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw BenchError("raw-c: \(connection.errorMessage)") }
                rows.append(readRow(statement))
            }
            sqlite3_reset(statement)
        }
        return (elapsed, Checksum(rows))
    }

    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        let connection = try open(path)
        var rows: [BenchRow] = []
        rows.reserveCapacity(ids.count)
        let elapsed = try measure {
            let statement = try connection.prepare(Schema.selectByID)
            try connection.execute("BEGIN")
            for id in ids {
                sqlite3_bind_int64(statement, 1, id)
                try readOne(statement, into: &rows, connection: connection)
            }
            try connection.execute("COMMIT")
        }
        return (elapsed, Checksum(rows))
    }

    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        let connection = try open(path)
        var results: [[BenchRow]] = []
        results.reserveCapacity(thresholds.count)
        let elapsed = try measure {
            let statement = try connection.prepare(Schema.query)
            try connection.execute("BEGIN")
            for threshold in thresholds {
                sqlite3_bind_double(statement, 1, threshold)
                var rows: [BenchRow] = []
                try readAll(statement, into: &rows, connection: connection)
                results.append(rows)
            }
            try connection.execute("COMMIT")
        }
        return (elapsed, Checksum(results.joined()))
    }

    /// The query workload already runs the SQL text.
    func querySQL(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        try query(thresholds, path: path)
    }

    func writeTransactions(_ rows: [BenchRow], path: String, access: Access) throws -> Duration {
        let connection = try open(path)
        let begin = try connection.prepare("BEGIN IMMEDIATE")
        let commit = try connection.prepare("COMMIT")
        let insert = try connection.prepare(Schema.insert(into: Schema.table))
        return try measure {
            for row in rows {
                try connection.run(begin)
                try connection.insert(row, with: insert)
                try connection.run(commit)
            }
        }
    }

    func lookupTransactions(_ ids: [Int64], path: String, access: Access) throws -> (Duration, Checksum) {
        let connection = try open(path)
        let begin = try connection.prepare("BEGIN")
        let commit = try connection.prepare("COMMIT")
        let select = try connection.prepare(Schema.selectByID)
        var rows: [BenchRow] = []
        rows.reserveCapacity(ids.count)
        let elapsed = try measure {
            for id in ids {
                try connection.run(begin)
                sqlite3_bind_int64(select, 1, id)
                try readOne(select, into: &rows, connection: connection)
                try connection.run(commit)
            }
        }
        return (elapsed, Checksum(rows))
    }

    func upsert(_ rows: [BenchRow], path: String) throws -> Duration {
        let connection = try open(path)
        return try measure {
            try connection.insertAll(rows, sql: Schema.upsert)
        }
    }

    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) throws -> ConcurrentOutcome {
        let stop = Flag()
        let outcome = Locked(ConcurrentOutcome(reads: 0, readElapsed: .zero, writtenRows: 0, writeElapsed: .zero))
        let failure = Locked<String?>(nil)
        let ready = DispatchGroup()
        let readersDone = DispatchGroup()
        let writerDone = DispatchGroup()
        let go = DispatchSemaphore(value: 0)

        for _ in 0..<readers {
            ready.enter()
            readersDone.enter()
            Thread.detachNewThread {
                defer { readersDone.leave() }
                var isReady = false
                do {
                    let connection = try RawConnection(path: path, key: nil)
                    let statement = try connection.prepare(Schema.selectAll)
                    ready.leave()
                    isReady = true
                    go.wait()
                    let clock = ContinuousClock()
                    let start = clock.now
                    var reads = 0
                    repeat {
                        var rows: [BenchRow] = []
                        try readAll(statement, into: &rows, connection: connection)
                        guard rows.count == settings.expectedRows else {
                            throw BenchError("raw-c reader: \(rows.count) rows, expected \(settings.expectedRows)")
                        }
                        reads += 1
                    } while clock.now - start < settings.duration
                    let elapsed = clock.now - start
                    outcome.withLock {
                        $0.reads += reads
                        $0.readElapsed = max($0.readElapsed, elapsed)
                    }
                } catch {
                    failure.withLock { $0 = $0 ?? "\(error)" }
                    if !isReady { ready.leave() }
                }
            }
        }

        ready.enter()
        writerDone.enter()
        Thread.detachNewThread {
            defer { writerDone.leave() }
            var isReady = false
            do {
                let connection = try open(path)
                let statement = try connection.prepare(Schema.insert(into: Schema.writerTable))
                ready.leave()
                isReady = true
                go.wait()
                let clock = ContinuousClock()
                let start = clock.now
                var nextID: Int64 = 1
                var written = 0
                while !stop.isRaised {
                    let batch = Dataset.writerRows(nextID..<nextID + Int64(settings.writerBatch))
                    nextID += Int64(settings.writerBatch)
                    try connection.execute("BEGIN IMMEDIATE")
                    for row in batch { try connection.insert(row, with: statement) }
                    try connection.execute("COMMIT")
                    written += batch.count
                    if settings.writerPause > .zero { Thread.sleep(forTimeInterval: settings.writerPause.seconds) }
                }
                let elapsed = clock.now - start
                outcome.withLock {
                    $0.writtenRows = written
                    $0.writeElapsed = elapsed
                }
            } catch {
                failure.withLock { $0 = $0 ?? "\(error)" }
                if !isReady { ready.leave() }
            }
        }

        ready.wait()
        for _ in 0...readers { go.signal() }
        readersDone.wait()
        stop.raise()
        writerDone.wait()
        if let failure = failure.value { throw BenchError(failure) }
        return outcome.value
    }
}

/// Whether this build can open encrypted databases.
var isEncryptionAvailable: Bool {
    #if SQLCipher
    true
    #else
    false
    #endif
}

/// Helpers used by the harness to build the databases every contender reads.
enum Seed {
    /// Creates the table at `path` holding `rows`, with the score index when `indexed`,
    /// checkpoints the WAL into the main file and closes.
    static func create(path: String, rows: some Collection<BenchRow>, indexed: Bool, key: String? = nil) throws {
        let connection = try RawConnection(path: path, key: key)
        try connection.execute(Schema.createTable(Schema.table))
        try connection.execute(Schema.createTable(Schema.writerTable))
        try connection.insertAll(rows, sql: Schema.insert(into: Schema.table))
        if indexed {
            try connection.execute(Schema.createScoreIndex)
        }
        try connection.execute("ANALYZE")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// The raw C family of the contender registry: the baseline.
func rawCContenders(_ settings: ContenderSettings) -> [any Contender] {
    [RawCContender(settings: settings)]
}
