#if PostgreSQL
import Logging
import NIOSSL
import Persistance
import PostgresNIO
import Synchronization

/// A PostgreSQL database: a pool of connections to one server, and transactions on it.
///
/// ```swift
/// let db = try await PostgresDatabase.open(url: "postgres://app:secret@db.internal:5432/game")
/// try await db.write { tx in
///     try await tx.execute("INSERT INTO player(name) VALUES ($1)", ["Ann"])
/// }
/// let count = try await db.read { tx in
///     try await tx.fetchOne("SELECT count(*) FROM player")!.value(at: 0, as: Int.self)
/// }
/// await db.close()
/// ```
///
/// Every block runs in a transaction on one connection of the pool: ``read(_:)`` in a READ ONLY
/// one, ``write(_:)`` in a READ WRITE one. A block not isolated to an actor runs on the
/// connection's event loop (its task's preferred executor), where postgres-nio sends the
/// statements and receives their results: a statement costs no thread switch, but a block must
/// not block its thread (no waiting on a semaphore or a lock held long, no long computation),
/// as NIO asks of anything run on an event loop. A block isolated to an actor runs there. A block that
/// fails with a serialization failure or a deadlock runs again (see
/// ``PostgresConfiguration/transactionRetries``). Cancelling the task cancels the statement it
/// is running on the server; the block then throws `CancellationError`.
public final class PostgresDatabase: Sendable {
    /// The configuration the database was opened with.
    public let configuration: PostgresConfiguration
    let client: PostgresClient
    /// The listening connection of change streams and observations (see `changes(in:)`).
    let changeNotifier: PostgresChangeNotifier
    /// This instance's document events (see `documentEvents(of:)`).
    let documentEventHub = PostgresDocumentEventHub()
    /// The tables found by committed transactions.
    private let foundTables = FoundTables()
    private let runTask: Task<Void, Never>
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var isClosed = false
        /// The watch of each open pooled connection.
        var watches: [PostgresConnection.ID: ConnectionWatch] = [:]
    }

    /// postgres-nio gets no logger of the app's: its debug output can show bound values.
    private static let quietLogger = Logger(label: "persistance.postgres.quiet") { _ in SwiftLogNoOpLogHandler() }

    private init(configuration: PostgresConfiguration, client: PostgresClient, logger: Logger) {
        self.configuration = configuration
        self.client = client
        self.logger = logger
        changeNotifier = PostgresChangeNotifier(configuration: configuration)
        runTask = Task { await client.run() }
    }

    deinit {
        changeNotifier.shutDown()
        runTask.cancel()
    }

    /// Opens a database from a URL: `postgres://user:password@host:port/database` (see
    /// ``PostgresConfiguration/init(url:)``).
    /// - Throws: as ``open(configuration:logger:)``, and `DatabaseError.Kind.configuration` for a malformed URL.
    public static func open(url: String, logger: Logger? = nil) async throws -> PostgresDatabase {
        try await open(configuration: PostgresConfiguration(url: url), logger: logger)
    }

    /// Opens a database, first connecting once to check that the server answers and accepts the
    /// credentials.
    /// - Parameters:
    ///   - configuration: The server, the credentials and the database's settings.
    ///   - logger: Receives the database's own events (open, close, retries); never a
    ///     password nor a bound value.
    /// - Throws: `DatabaseError.Kind.serverUnreachable` naming the host and port;
    ///   `DatabaseError.Kind.authenticationFailed`; `DatabaseError.Kind.postgres` for another
    ///   refusal (an unknown database, …). No error shows the password.
    public static func open(configuration: PostgresConfiguration, logger: Logger? = nil) async throws -> PostgresDatabase {
        let logger = logger ?? quietLogger
        do {
            let probe = try await PostgresConnection.connect(
                configuration: configuration.connectionConfiguration(), id: 0, logger: quietLogger)
            try? await probe.close()
        } catch {
            throw DatabaseError.opening(error, address: configuration.address)
        }
        let clientConfiguration = try configuration.clientConfiguration()
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: quietLogger)
        logger.info("opened PostgreSQL database", metadata: ["database": "\(configuration)"])
        return PostgresDatabase(configuration: configuration, client: client, logger: logger)
    }

    /// Closes every connection. Blocks running meanwhile fail; later ones throw
    /// `DatabaseError.Kind.databaseClosed`. Closing twice does nothing.
    public func close() async {
        let wasClosed = state.withLock { state in
            defer { state.isClosed = true }
            return state.isClosed
        }
        guard !wasClosed else { return }
        await changeNotifier.close()
        documentEventHub.close()
        runTask.cancel()
        await runTask.value
        logger.info("closed PostgreSQL database", metadata: ["database": "\(configuration)"])
    }

    /// Runs `body` in a READ ONLY transaction at `isolationLevel` and returns its value
    /// (``read(_:)`` runs at the configuration's level).
    /// - Throws: the block's error; `CancellationError` when the task was cancelled;
    ///   `DatabaseError.Kind.databaseClosed`; the errors of ``PostgresTransaction``.
    @discardableResult
    public func read<T: Sendable>(
        isolationLevel: PostgresIsolationLevel,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        try await transaction(readOnly: true, isolationLevel: isolationLevel, body)
    }

    /// Runs `body` in a READ WRITE transaction at `isolationLevel` (``write(_:)`` runs at the
    /// configuration's level), commits when it returns and rolls back when it throws. A block
    /// that fails with SQLSTATE 40001 or 40P01 (a transaction conflict) runs again, up to
    /// ``PostgresConfiguration/transactionRetries`` times: it must be safe to re-run.
    /// - Throws: the block's error; `CancellationError` when the task was cancelled (rolled
    ///   back); `DatabaseError.Kind.databaseClosed`; the errors of ``PostgresTransaction``.
    @discardableResult
    public func write<T: Sendable>(
        isolationLevel: PostgresIsolationLevel,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        try await transaction(readOnly: false, isolationLevel: isolationLevel, body)
    }

    /// Runs `body` in a transaction at `isolationLevel`, or the configuration's when nil.
    func transaction<T: Sendable>(
        readOnly: Bool,
        isolationLevel: PostgresIsolationLevel?,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        let level = isolationLevel ?? configuration.isolationLevel
        let begin = "BEGIN ISOLATION LEVEL \(level.rawValue) \(readOnly ? "READ ONLY" : "READ WRITE")"
        var retries = 0
        var staleConnections = 0
        var stalePlans = 0
        while true {
            do {
                return try await transactionOnce(begin: begin, body)
            } catch let stale as StaleConnection {
                // Each idle connection of the pool may have died: try until a fresh one is made.
                staleConnections += 1
                if staleConnections > configuration.maximumConnections { throw stale.error }
            } catch let stale as StalePreparedStatement {
                // A schema change made a prepared statement stale, now dropped (each connection may hold
                // one), or dropped a table found before, now looked up again.
                stalePlans += 1
                if stalePlans > configuration.maximumConnections { throw stale.error }
            } catch let error as DatabaseError where error.condition == .transactionConflict
                && retries < configuration.transactionRetries
            {
                retries += 1
                logger.debug(
                    "retrying a transaction that lost to a concurrent one",
                    metadata: ["sqlState": "\(error.sqlState ?? "")", "retry": "\(retries)"])
                // A short random pause, so that two transactions that conflicted do not meet again.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * retries))))
            }
        }
    }

    private func transactionOnce<T: Sendable>(
        begin: String,
        _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        guard !state.withLock({ $0.isClosed }) else {
            throw DatabaseError(kind: .databaseClosed, message: "the PostgreSQL database is closed")
        }
        do {
            return try await client.withConnection(isolation: #isolation) { connection in
                let watch = try await watch(of: connection)
                let transaction = PostgresTransaction(
                    connection: connection,
                    watch: watch,
                    foundTables: foundTables,
                    canceller: StatementCanceller(client: client, backendPID: watch.backendPID),
                    address: configuration.address)
                return try await watch.onEventLoop {
                    try await transaction.run(begin: begin, announcingTo: documentEventHub, body)
                }
            }
        } catch {
            if Task.isCancelled { throw CancellationError() }
            if state.withLock({ $0.isClosed }), !(error is DatabaseError) {
                throw DatabaseError(kind: .databaseClosed, message: "the PostgreSQL database is closed")
            }
            throw DatabaseError.postgres(error, sql: nil, address: configuration.address)
        }
    }

    /// The watch of a pooled connection (its server process, its close), made once per connection.
    private func watch(of connection: PostgresConnection) async throws -> ConnectionWatch {
        if let watch = state.withLock({ $0.watches[connection.id] }) { return watch }
        var pid: Int32?
        for try await row in try await connection.query("SELECT pg_backend_pid()", logger: Self.quietLogger) {
            pid = try row.makeRandomAccess()[0].decode(Int32.self)
        }
        guard let pid else { throw DatabaseError(kind: .postgres, message: "pg_backend_pid() returned no row") }
        let watch = ConnectionWatch(connection: connection, backendPID: pid, address: configuration.address)
        let id = connection.id
        state.withLock { $0.watches[id] = watch }
        connection.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLock { $0.watches.removeValue(forKey: id) }
        }
        return watch
    }
}

extension PostgresConfiguration {
    /// Server settings sent when each connection starts: the session's time zone is UTC, so
    /// that a date text without an offset (SQLite's date text) is UTC in a TIMESTAMPTZ, as it
    /// is on SQLite; and the statement timeout, if any.
    private var startupParameters: [(String, String)] {
        var parameters = [("TimeZone", "UTC")]
        if let statementTimeout {
            let (seconds, attoseconds) = statementTimeout.components
            let milliseconds = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            parameters.append(("statement_timeout", "\(milliseconds)"))
        }
        return parameters
    }

    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch self.tls {
        case .disable: tls = .disable
        case .prefer: tls = try .prefer(NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = try .require(NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        let (seconds, attoseconds) = connectTimeout.components
        configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    func clientConfiguration() throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS = switch self.tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }
}
#endif
