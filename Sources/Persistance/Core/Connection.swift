import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// One SQLite connection (`sqlite3*`).
///
/// A connection is not `Sendable`: use it from one thread or task at a time. The executor
/// (`Database`) owns connections and hands them to your closures; open one directly for
/// tools, tests and single-threaded code.
///
/// ```swift
/// let conn = try Connection(path: "/tmp/app.sqlite")
/// try conn.execute("CREATE TABLE t(a INTEGER, b TEXT)")
/// try conn.execute("INSERT INTO t VALUES (?, ?)", [1, "one"])
/// let count = try conn.fetchOne(Int.self, "SELECT count(*) FROM t")
/// ```
public final class Connection {
    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write; the file is created if missing.
        case readWriteCreate
    }

    /// How to open a connection.
    public struct Options: Sendable {
        /// How the file is opened.
        public var mode: Mode = .readWriteCreate
        /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
        public var busyTimeout: Duration = .seconds(5)
        /// Whether foreign key constraints are enforced (`PRAGMA foreign_keys`).
        public var foreignKeys = true
        /// How many prepared statements the connection keeps for reuse.
        public var statementCacheCapacity = 64
        /// The name of the SQLite VFS (the layer between SQLite and the file system) that opens
        /// the file; nil for the default one. Names a VFS registered with
        /// `sqlite3_vfs_register`, for instance a test VFS that injects faults; an unknown name
        /// fails the open with `SQLITE_ERROR` ("no such vfs").
        public var vfs: String?
        /// Runs right after the file is opened and before it is first read: the place to
        /// apply an encryption key.
        public var prepare: (@Sendable (Connection) throws -> Void)?

        public init() {}
    }

    /// The path the connection was opened with (`:memory:` for an in-memory database).
    public let path: String
    /// The options the connection was opened with.
    public let options: Options
    /// Interrupts this connection's running statement from any thread.
    public let interruptHandle: InterruptHandle

    // The connection's state below is used by one thread at a time (a `Connection` is not
    // `Sendable`, and a confined one checks its thread before any SQL runs), and none of it
    // is reached again while it is being changed; so the properties read on every statement
    // opt out of run-time exclusivity checks, which cost about 80 instructions per access.
    @exclusivity(unchecked) private var handle: OpaquePointer?
    private let statementCache: StatementCache
    private var liveStatements: [ObjectIdentifier: Unmanaged<Statement>] = [:]
    @exclusivity(unchecked) var savepointDepth = 0
    /// The statement logger SQLite calls back (see `StatementTracer`), kept alive with the connection.
    @exclusivity(unchecked) var statementTracer: StatementTracer?
    /// The statements that begin and end top-level transactions, kept outside the cache.
    @exclusivity(unchecked) var transactionStatements = TransactionStatements()
    /// Changes whenever `transaction`/`inTransaction` begins or ends a top-level transaction:
    /// tells one transaction from the next, and from the time after it (a cursor opened in a
    /// transaction checks it before each row). Used on the connection's thread only, so it
    /// opts out of run-time exclusivity checks.
    @exclusivity(unchecked) @usableFromInline var transactionSerial: UInt64 = 0
    /// Collects this connection's changes for observers while any are subscribed (see
    /// `ChangeRecorder`); nil otherwise, so unobserved connections pay nothing.
    @exclusivity(unchecked) var changeRecorder: ChangeRecorder?
    /// The query builder's rendered SQL texts (the process-wide cache, held from the open on).
    let queryRenderCache = QueryRenderCache.shared
    /// The arrays the query builder collects a statement's shape and values into, kept between
    /// statements (see `QueryRenderBuffers`).
    @exclusivity(unchecked) var queryRenderBuffers = QueryRenderBuffers()
    /// The asynchronous job running on the connection, whose cancellation stops its
    /// statements (see `installCancellationCheck`); set and cleared by the job on the
    /// connection's thread, which holds the job meanwhile.
    @exclusivity(unchecked) unowned(unsafe) var cancellableJob: AsyncJob?
    /// The only thread allowed to use the connection, set by an owner that lends it to
    /// blocks of code on that thread (the executor); nil when any thread may. Checked before
    /// any SQL runs and before the raw handle is handed out. Set once, before any use, so it
    /// opts out of run-time exclusivity checks.
    @exclusivity(unchecked) @usableFromInline var confinedThread: pthread_t?

    /// Throws `connectionEscaped` when the connection is confined to another thread.
    @inlinable @inline(__always)
    func checkAccess() throws {
        if let owner = confinedThread, pthread_equal(owner, pthread_self()) == 0 { throw escaped() }
    }

    @usableFromInline
    func escaped() -> DatabaseError {
        DatabaseError(
            kind: .connectionEscaped, message: "a connection lent to a read or write block was used outside that block")
    }

    /// Opens the database file at `path`.
    ///
    /// The file is read once before the initializer returns, so a missing directory, a
    /// directory, a file that is not a database or a wrong encryption key fails here, with
    /// the file left as it was.
    /// A FIFO, socket, device or directory is refused before SQLite opens it
    /// (`.notARegularFile`, whose result code is `SQLITE_CANTOPEN`).
    public init(path: String, options: Options = Options()) throws {
        if linksBothBackends {
            throw DatabaseError.misuse("this build enables both SystemSQLite and SQLCipher (DocumentationBuild); it opens no database")
        }
        try RegularFile.check(path)  // SQLite would block forever on a FIFO
        self.path = path
        self.options = options
        var flags = SQLITE_OPEN_NOMUTEX
        switch options.mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, options.vfs)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let extended = opened.map { sqlite3_extended_errcode($0) } ?? code
            sqlite3_close(opened)
            throw DatabaseError(
                kind: .sqlite, extendedResultCode: ResultCode(rawValue: extended),
                message: "cannot open \(path): \(message)")
        }
        handle = opened
        interruptHandle = InterruptHandle(handle: opened)
        statementCache = StatementCache(capacity: options.statementCacheCapacity)
        do {
            sqlite3_extended_result_codes(opened, 1)
            persistance_disable_double_quoted_strings(opened)
            let milliseconds = options.busyTimeout.components.seconds * 1000
                + options.busyTimeout.components.attoseconds / 1_000_000_000_000_000
            sqlite3_busy_timeout(opened, Int32(clamping: milliseconds))
            try options.prepare?(self)
            // Read the schema now, so an unreadable file fails at open rather than at first use.
            try execute("SELECT count(*) FROM sqlite_master")
            if options.foreignKeys {
                try execute("PRAGMA foreign_keys = ON")
            }
        } catch {
            try? close()
            throw error
        }
    }

    /// Opens a private in-memory database, gone when the connection closes.
    public static func inMemory(options: Options = Options()) throws -> Connection {
        try Connection(path: ":memory:", options: options)
    }

    deinit {
        try? closeHandle()
    }

    /// Whether the connection is closed.
    public var isClosed: Bool { handle == nil }

    /// Finalizes every statement and closes the connection. Later use throws a misuse error.
    /// Closing twice does nothing.
    ///
    /// A connection a `Database` lends to a block belongs to the database, which alone
    /// closes it: closing it from outside the block throws
    /// `DatabaseError.Kind.connectionEscaped`, like any other use there, and from inside
    /// the block a misuse error; the connection stays open either way.
    public func close() throws {
        if confinedThread != nil {
            try checkAccess()
            throw DatabaseError.misuse("a connection lent by a Database belongs to it; close the Database instead")
        }
        try closeHandle()
    }

    /// Closes the connection whoever owns it: for its owner (the executor) and `deinit`.
    func closeHandle() throws {
        guard let handle else { return }
        // Finalize first: released statements then see no handle and never touch this connection.
        for statement in liveStatements.values {
            statement.takeUnretainedValue().finalize()
        }
        liveStatements.removeAll()
        statementCache.removeAll()
        transactionStatements = TransactionStatements()
        interruptHandle.invalidate()
        self.handle = nil
        let code = sqlite3_close(handle)
        if code != SQLITE_OK {
            // Something outside our statements (a backup, a blob handle) still holds it; let SQLite finish later.
            sqlite3_close_v2(handle)
            throw DatabaseError(
                kind: .sqlite, extendedResultCode: ResultCode(rawValue: code),
                message: "close: \(String(cString: sqlite3_errstr(code)))")
        }
    }

    /// The raw `sqlite3*` handle, for calling the C API directly. Throws once closed.
    public func sqliteHandle() throws -> OpaquePointer {
        try checkAccess()
        guard let handle else { throw DatabaseError.misuse("connection is closed") }
        return handle
    }

    // MARK: Statements

    /// Prepares a statement that is not cached. The SQL must hold exactly one statement.
    public func prepare(_ sql: String) throws -> Statement {
        let handle = try sqliteHandle()
        var prepared: OpaquePointer?
        var hasTail = false
        let code = try sql.withCString { start -> Int32 in
            try Self.checkNoNUL(start, in: sql)
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, start, -1, &prepared, &tail)
            hasTail = tail.map { !Self.isBlank($0) } ?? false
            return code
        }
        guard code == SQLITE_OK else { throw lastError(code: code, sql: sql) }
        guard let prepared else { throw DatabaseError.misuse("no SQL statement to prepare", sql: sql) }
        let statement = Statement(connection: self, handle: prepared)
        if hasTail {
            throw DatabaseError.misuse("prepare takes one statement; use execute(_:) for several", sql: sql)
        }
        return statement
    }

    /// A prepared statement for `sql` from the connection's cache, prepared on first use.
    /// Reset it (or run it with `execute`) when done so it can be handed out again.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache.statement(for: sql) { return statement }
        let statement = try prepare(sql)
        statementCache.insert(statement, for: sql)
        return statement
    }

    /// The number of statements kept in the statement cache.
    public var cachedStatementCount: Int { statementCache.count }

    func register(_ statement: Statement) {
        liveStatements[ObjectIdentifier(statement)] = Unmanaged.passUnretained(statement)
    }

    func unregister(_ statement: Statement) {
        liveStatements[ObjectIdentifier(statement)] = nil
    }

    // MARK: Executing

    /// Runs one or several `;`-separated statements. Positional arguments are consumed by the
    /// statements in order; named arguments are bound wherever their name appears. Several
    /// statements are not atomic unless run inside a transaction.
    public func execute(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws {
        if let statement = statementCache.statement(for: sql) {
            return try statement.execute(arguments)
        }
        let handle = try sqliteHandle()
        var remaining = arguments
        var usedNames = Set<String>()
        var executedAny = false
        try sql.withCString { start in
            try Self.checkNoNUL(start, in: sql)
            var next: UnsafePointer<CChar>? = start
            while let current = next, !Self.isBlank(current) {
                var prepared: OpaquePointer?
                let code = sqlite3_prepare_v2(handle, current, -1, &prepared, &next)
                guard code == SQLITE_OK else { throw lastError(code: code, sql: sql) }
                guard let prepared else { continue }  // a comment or a lone `;`
                let statement = Statement(connection: self, handle: prepared)
                let isWholeSQL = !executedAny && next.map { Self.isBlank($0) } ?? true
                executedAny = true
                if isWholeSQL {
                    try statement.execute(arguments)
                    statementCache.insert(statement, for: sql)
                    return
                }
                try statement.execute(remaining.take(for: statement, usedNames: &usedNames))
            }
            try remaining.checkAllUsed(usedNames: usedNames, sql: sql)
        }
    }

    /// Throws `.invalidArguments` when `sql` holds a NUL byte: SQLite would stop reading at
    /// it and silently run only the text before it. `start` is `sql`'s C string.
    private static func checkNoNUL(_ start: UnsafePointer<CChar>, in sql: String) throws {
        guard strlen(start) == sql.utf8.count else {
            throw DatabaseError(
                kind: .invalidArguments, message: "SQL text contains a NUL character, which would cut it short", sql: sql)
        }
    }

    /// Whether `text` holds only white space, `;` and comments: nothing left to run.
    private static func isBlank(_ text: UnsafePointer<CChar>) -> Bool {
        var cursor = text
        func at(_ offset: Int) -> UInt8 { UInt8(bitPattern: cursor[offset]) }
        while at(0) != 0 {
            switch (at(0), at(1)) {
            case (0x20, _), (0x09, _), (0x0A, _), (0x0D, _), (0x0C, _), (0x3B, _):  // white space and `;`
                cursor += 1
            case (0x2D, 0x2D):  // `--` comment, to the end of the line
                while at(0) != 0 && at(0) != 0x0A { cursor += 1 }
            case (0x2F, 0x2A):  // `/* */` comment, to its end (or the end of the text)
                cursor += 2
                while at(0) != 0 && !(at(0) == 0x2A && at(1) == 0x2F) { cursor += 1 }
                if at(0) != 0 { cursor += 2 }
            default:
                return false
            }
        }
        return true
    }

    // MARK: State

    /// The rowid of the most recent successful INSERT on this connection.
    ///
    /// Racy on a shared database: the writer connection serves every write block in turn,
    /// so read in a later block (or after awaiting anything) it may be another caller's row.
    /// Take the id in the block of the insert: ``Table`` inserts return their rows' ids,
    /// ``executeInsert(_:_:)`` (and ``Database/executeInsert(_:_:)``) return the row id of
    /// one raw `INSERT`.
    public var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The number of rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// The number of rows changed since the connection opened.
    public var totalChanges: Int {
        handle.map { Int(sqlite3_total_changes($0)) } ?? 0
    }

    /// Interrupts the running statement; see `interruptHandle` to do it from another thread.
    public func interrupt() {
        interruptHandle.interrupt()
    }

    /// The error SQLite reports for `code`, with its current message, for `sql`.
    @usableFromInline
    func lastError(code: Int32, sql: String?) -> DatabaseError {
        guard let handle else { return DatabaseError.misuse("connection is closed", sql: sql) }
        var extended = sqlite3_extended_errcode(handle)
        if extended & 0xFF != code & 0xFF { extended = code }
        return DatabaseError(
            kind: .sqlite, extendedResultCode: ResultCode(rawValue: extended),
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

@available(*, unavailable, message: "A connection must be used from one thread or task at a time")
extension Connection: Sendable {}

extension StatementArguments {
    /// The arguments one statement of a multi-statement `execute` takes, removing positional ones as they are used.
    fileprivate mutating func take(for statement: Statement, usedNames: inout Set<String>) throws -> StatementArguments {
        if let failure = conversionError {
            throw DatabaseError(kind: .encoding, message: failure, sql: statement.sql)
        }
        switch storage {
        case .positional(let values):
            let count = statement.parameterCount
            guard values.count >= count else {
                throw DatabaseError(
                    kind: .invalidArguments, message: "not enough arguments for the statement", sql: statement.sql)
            }
            storage = .positional(Array(values.dropFirst(count)))
            return StatementArguments(storage: .positional(Array(values.prefix(count))))
        case .named(let values):
            var taken = [String: DatabaseValue]()
            for name in statement.parameterNames.compactMap({ $0 }) {
                taken[name] = values[name]
                usedNames.insert(name)
            }
            return StatementArguments(storage: .named(taken))
        }
    }

    fileprivate func checkAllUsed(usedNames: Set<String>, sql: String) throws {
        switch storage {
        case .positional(let values) where !values.isEmpty:
            throw DatabaseError(kind: .invalidArguments, message: "\(values.count) argument(s) left unused", sql: sql)
        case .named(let values):
            if let unknown = values.keys.sorted().first(where: { !usedNames.contains($0) }) {
                throw DatabaseError(
                    kind: .invalidArguments, message: "statement has no parameter named \"\(unknown)\"", sql: sql)
            }
        default:
            break
        }
    }

    fileprivate init(storage: Storage) {
        self.storage = storage
        self.conversionError = nil
    }
}
