import Logging
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// Logs the statements a connection runs, through SQLite's profile trace
/// (`sqlite3_trace_v2` with `SQLITE_TRACE_PROFILE`), which reports each statement with its
/// run time when it finishes:
/// - every statement at `trace`, with its duration;
/// - statements slower than the threshold at `warning`;
/// - statements that change the schema (`CREATE`, `DROP`, `ALTER`) at `info`.
///
/// The hook is installed only when the logger's level at open lets one of these through, so
/// a silent logger costs nothing per statement; when installed, each statement costs a check
/// of the logger's level and, below `trace`, a look at the first word of its SQL.
///
/// The SQL is logged with its placeholders; bound values appear only when the configuration
/// allows them, and never for a statement that could carry a key (`ATTACH … KEY`, key pragmas).
final class StatementTracer {
    private let logger: Logger
    private let showsValues: Bool
    private let slowThreshold: Int64

    private init(logger: Logger, showsValues: Bool, slowThreshold: Duration?) {
        self.logger = logger
        self.showsValues = showsValues
        self.slowThreshold = slowThreshold.map { duration in
            let (seconds, attoseconds) = duration.components
            return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue
                + attoseconds / 1_000_000_000
        } ?? .max
    }

    /// Installs a tracer on `connection` for `configuration`, when its logger would log
    /// anything the tracer reports.
    static func install(on connection: Connection, for configuration: DatabaseConfiguration) throws {
        let level = configuration.logger.logLevel
        guard level <= .info || (configuration.slowStatementThreshold != nil && level <= .warning) else { return }
        var logger = configuration.logger
        logger[metadataKey: "database"] = "\(configuration.name)"
        let tracer = StatementTracer(
            logger: logger, showsValues: configuration.logsStatementValues,
            slowThreshold: configuration.slowStatementThreshold)
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

    private func register(on connection: Connection) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let code = sqlite3_trace_v2(try connection.sqliteHandle(), UInt32(SQLITE_TRACE_PROFILE), { _, context, statement, nanoseconds in
            guard let context, let statement, let nanoseconds else { return 0 }
            Unmanaged<StatementTracer>.fromOpaque(context).takeUnretainedValue().statementFinished(
                OpaquePointer(statement), nanoseconds: nanoseconds.load(as: Int64.self))
            return 0
        }, context)
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: nil) }
    }

    private func statementFinished(_ statement: OpaquePointer, nanoseconds: Int64) {
        let level = logger.logLevel
        let isSlow = nanoseconds >= slowThreshold && level <= .warning
        guard level <= .info || isSlow, let sql = sqlite3_sql(statement) else { return }
        let changesSchema = level <= .info && Self.changesSchema(sql)
        guard level == .trace || isSlow || changesSchema else { return }
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
        if changesSchema {
            logger.info("schema statement", metadata: metadata)
        }
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
