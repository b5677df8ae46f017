import Logging
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// Follows the statements a connection runs through SQLite's trace hook (`sqlite3_trace_v2`),
/// for the logger and for a ``DatabaseTracer``. SQLite reports each statement when it starts
/// (`SQLITE_TRACE_STMT`, asked for only when something uses it) and when it finishes, with its
/// run time (`SQLITE_TRACE_PROFILE`). It logs:
/// - every statement at `trace`, with its duration;
/// - statements slower than the threshold at `warning`;
/// - statements that change the schema (`CREATE`, `DROP`, `ALTER`) at `info`, and those that
///   change nothing (`CREATE TABLE IF NOT EXISTS` of a table that exists) at `debug`, as are all
///   those run while the writer opens, which the open's one `info` line sums up (see
///   `schemaChanges`). A statement changed the schema when SQLite's in-memory schema
///   (`SQLITE_DBSTATUS_SCHEMA_USED`) differs after it from before it.
///
/// And it reports each statement of a traced block to the block's ``DatabaseTransactionTracer``.
///
/// The hook is installed only when the logger's level at open lets one of these through, or
/// the configuration has a tracer, so a silent, untraced connection costs nothing per
/// statement; when installed, each statement costs a check of the logger's level and, below
/// `trace`, a look at the first word of its SQL.
///
/// The SQL is logged with its placeholders; bound values appear only when the configuration
/// allows them, and never for a statement that could carry a key (`ATTACH … KEY`, key pragmas).
/// Tracers get the SQL with its placeholders only.
final class StatementTracer {
    private let logger: Logger
    private let showsValues: Bool
    private let slowThreshold: Int64
    /// The events SQLite reports (`SQLITE_TRACE_PROFILE`, and `SQLITE_TRACE_STMT` when used).
    private let events: UInt32
    // Used on the connection's thread only (SQLite calls back on the thread that runs the
    // statement), so the state below opts out of run-time exclusivity checks.
    /// The tracer of the block running on the connection, while it is traced.
    @exclusivity(unchecked) private var transaction: (any DatabaseTransactionTracer)?
    /// The traced statement that finished last and its run time, until its outcome is known:
    /// SQLite reports a statement's end before its step returns, so a failure is told by the
    /// code that stepped it (`statementFailed`), and success by the next event.
    @exclusivity(unchecked) private var finished: (statement: OpaquePointer, nanoseconds: Int64)?
    /// The size of the in-memory schema when the running schema statement started.
    @exclusivity(unchecked) private var schemaSizeAtStart: Int32?
    /// Whether the writer is opening: schema statements then log at `debug` and are counted.
    @exclusivity(unchecked) var isOpening = false
    /// The schema statements that changed the schema while the writer opened.
    @exclusivity(unchecked) private(set) var schemaChanges = 0

    private init(logger: Logger, showsValues: Bool, slowThreshold: Duration?, events: UInt32) {
        self.logger = logger
        self.showsValues = showsValues
        self.events = events
        self.slowThreshold = slowThreshold.map { duration in
            let (seconds, attoseconds) = duration.components
            return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue
                + attoseconds / 1_000_000_000
        } ?? .max
    }

    /// Installs a tracer on `connection` for `configuration`, when its logger would log
    /// anything the tracer reports or the configuration has a ``DatabaseTracer``.
    static func install(on connection: Connection, for configuration: DatabaseConfiguration) throws {
        let level = configuration.logger.logLevel
        let logs = level <= .info || (configuration.slowStatementThreshold != nil && level <= .warning)
        guard logs || configuration.tracer != nil else { return }
        var logger = configuration.logger
        logger[metadataKey: "database"] = "\(configuration.name)"
        let startsAreUsed = configuration.tracer != nil || level <= .info
        let tracer = StatementTracer(
            logger: logger, showsValues: configuration.logsStatementValues,
            slowThreshold: configuration.slowStatementThreshold,
            events: UInt32(SQLITE_TRACE_PROFILE) | (startsAreUsed ? UInt32(SQLITE_TRACE_STMT) : 0))
        try tracer.register(on: connection)
        connection.statementTracer = tracer  // the connection keeps the tracer alive while SQLite may call it
    }

    /// Runs `body` with `connection`'s tracing off. SQLCipher 3's `sqlcipher_export` runs its
    /// own statements with the trace callback cleared but the profile flag still set, and
    /// would call a null callback.
    static func suspended<T>(on connection: Connection, _ body: () throws -> T) throws -> T {
        guard let tracer = connection.statementTracer else { return try body() }
        sqlite3_trace_v2(try connection.sqliteHandle(), 0, nil, nil)
        let result = Result { try body() }
        try tracer.register(on: connection)
        return try result.get()
    }

    /// Runs `body`, one block on `connection`, traced by `transaction`: the block's start and
    /// end, and each of its statements, are reported to it.
    static func tracing<T>(
        _ transaction: any DatabaseTransactionTracer, on connection: Connection, _ body: () throws -> T
    ) throws -> T {
        let tracer = connection.statementTracer  // installed when the configuration has a tracer
        tracer?.transaction = transaction
        transaction.transactionDidStart()
        let result = Result { try body() }
        tracer?.reportFinishedStatement()
        tracer?.transaction = nil
        switch result {
        case .success: transaction.transactionDidEnd(error: nil)
        case .failure(let error): transaction.transactionDidEnd(error: error)
        }
        return try result.get()
    }

    private func register(on connection: Connection) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = sqlite3_trace_v2(try connection.sqliteHandle(), events, { event, context, pointer, detail in
            guard let context, let pointer, let detail else { return 0 }
            let tracer = Unmanaged<StatementTracer>.fromOpaque(context).takeUnretainedValue()
            let statement = OpaquePointer(pointer)
            if event == UInt32(SQLITE_TRACE_STMT) {
                // The detail is the statement's own text, or a comment naming a trigger it runs.
                if UnsafeRawPointer(sqlite3_sql(statement)) == UnsafeRawPointer(detail) {
                    tracer.statementStarted(statement)
                }
            } else {
                tracer.statementFinished(statement, nanoseconds: detail.load(as: Int64.self))
            }
            return 0
        }, context)
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: nil) }
    }

    private func statementStarted(_ statement: OpaquePointer) {
        reportFinishedStatement()
        guard let sql = sqlite3_sql(statement) else { return }
        if logger.logLevel <= .info, Self.changesSchema(sql) {
            schemaSizeAtStart = Self.schemaSize(of: statement)
        }
        transaction?.statementDidStart(Int(bitPattern: statement), sql: String(cString: sql))
    }

    private func statementFinished(_ statement: OpaquePointer, nanoseconds: Int64) {
        reportFinishedStatement()
        if transaction != nil { finished = (statement, nanoseconds) }
        log(statement, nanoseconds: nanoseconds)
    }

    /// Reports the statement that finished last as successful, if it was not reported yet.
    private func reportFinishedStatement() {
        guard let finished else { return }
        self.finished = nil
        transaction?.statementDidEnd(
            Int(bitPattern: finished.statement), duration: .nanoseconds(finished.nanoseconds), error: nil)
    }

    /// Reports `statement`, which just finished, as failed with `error`.
    fileprivate func statementFailed(_ statement: OpaquePointer, _ error: DatabaseError) {
        guard let finished, finished.statement == statement else { return }
        self.finished = nil
        transaction?.statementDidEnd(
            Int(bitPattern: statement), duration: .nanoseconds(finished.nanoseconds), error: error)
    }

    private func log(_ statement: OpaquePointer, nanoseconds: Int64) {
        let level = logger.logLevel
        let isSlow = nanoseconds >= slowThreshold && level <= .warning
        guard level <= .info || isSlow, let sql = sqlite3_sql(statement) else { return }
        let schemaLevel = level <= .info && Self.changesSchema(sql) ? schemaStatementLevel(statement) : nil
        guard level == .trace || isSlow || schemaLevel.map({ level <= $0 }) == true else { return }
        let metadata: Logger.Metadata = [
            "sql": "\(text(of: statement, sql: sql))",
            "duration_ms": "\(Double(nanoseconds) / 1_000_000)",
        ]
        if level == .trace {
            logger.trace("statement", metadata: metadata)
        }
        if isSlow {
            logger.warning("slow statement", metadata: metadata)
        }
        if let schemaLevel, level <= schemaLevel {
            logger.log(level: schemaLevel, "schema statement", metadata: metadata)
        }
    }

    /// The level of a finished schema statement: `info` when it changed the schema after the
    /// writer opened, else `debug`; counts the changes made while it opens.
    private func schemaStatementLevel(_ statement: OpaquePointer) -> Logger.Level {
        let changed = schemaSizeAtStart.map { $0 != Self.schemaSize(of: statement) } ?? true
        schemaSizeAtStart = nil
        if changed && isOpening { schemaChanges += 1 }
        return changed && !isOpening ? .info : .debug
    }

    /// The memory SQLite's in-memory schema uses, on the connection of `statement`.
    private static func schemaSize(of statement: OpaquePointer) -> Int32 {
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(sqlite3_db_handle(statement), SQLITE_DBSTATUS_SCHEMA_USED, &current, &highest, 0)
        return current
    }

    /// The statement's SQL, with its bound values when they may be shown.
    private func text(of statement: OpaquePointer, sql: UnsafePointer<CChar>) -> String {
        let withPlaceholders = String(cString: sql)
        guard showsValues, !Self.mayCarryKey(withPlaceholders), let expanded = sqlite3_expanded_sql(statement) else {
            return withPlaceholders
        }
        defer { sqlite3_free(expanded) }
        return String(cString: expanded)
    }

    /// Whether the SQL starts with `CREATE`, `DROP` or `ALTER` (any case, after white space).
    private static func changesSchema(_ sql: UnsafePointer<CChar>) -> Bool {
        var cursor = sql
        while cursor.pointee == 0x20 || (cursor.pointee >= 0x09 && cursor.pointee <= 0x0D) { cursor += 1 }
        func startsWith(_ word: StaticString) -> Bool {
            for index in 0..<word.utf8CodeUnitCount {
                // ASCII letters only: setting bit 5 lower-cases them.
                guard UInt8(bitPattern: cursor[index]) | 0x20 == word.utf8Start[index] | 0x20 else { return false }
            }
            return true
        }
        return startsWith("CREATE") || startsWith("DROP") || startsWith("ALTER")
    }

    /// Whether a statement could hold a key among its values: attaching a database (with
    /// `KEY`) and the key pragmas. Conservative: any mention of "key" or "attach" counts.
    private static func mayCarryKey(_ sql: String) -> Bool {
        let lowercased = sql.lowercased()
        return lowercased.contains("key") || lowercased.contains("attach")
    }
}

extension Connection {
    /// Tells the statement tracer, if any, that `statement` failed with `error`: the code that
    /// stepped it knows, where SQLite's trace hook does not.
    @usableFromInline
    func statementFailed(_ statement: OpaquePointer, _ error: DatabaseError) {
        statementTracer?.statementFailed(statement, error)
    }
}
