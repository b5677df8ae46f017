#if PostgreSQL
import Logging
import Persistance
import PostgresNIO
import Synchronization

/// The one connection of a `PostgresDatabase` that listens for the commits its change triggers
/// announce (``PostgresChangeTriggers``), by this app instance or any other, and hands each
/// notification to every change stream and value observation of the database.
///
/// It connects when the first subscriber comes, outside the pool (a listening connection must
/// stay open). When the connection is lost it connects again, retrying with growing pauses,
/// and then tells every subscriber ``Notice/unknown``: commits made meanwhile went unheard,
/// so observers fetch again. Closing ends every subscriber.
final class PostgresChangeNotifier: Sendable {
    /// What a subscriber is told.
    enum Notice: Sendable, Equatable {
        /// A commit changed this table (`schema.table`).
        case table(qualifiedName: String)
        /// Commits may have been missed (the listening connection was lost and made again).
        case unknown
    }

    /// One receiver of notices.
    struct Subscriber: Sendable {
        /// Hands on a notice. Called in notification order; it must not block.
        let receive: @Sendable (Notice) -> Void
        /// The database closed: no notice will come.
        let finish: @Sendable () -> Void
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        var isClosed = false
        var listener: Task<Void, Never>?
        /// Whether LISTEN is in effect on the current connection.
        var isListening = false
        /// The server process of the listening connection, while it listens.
        var listenerBackendPID: Int32?
        /// Subscribers waiting for LISTEN to be in effect.
        var waiting: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        /// The tables whose trigger this notifier installed or found in place.
        var triggeredTables: Set<PostgresChangeTriggers.Table> = []
    }

    private let configuration: PostgresConfiguration
    private let state = Mutex(State())
    /// The database's value observations that share their fetches, by key (see
    /// `PostgresDatabase.observe(sharing:_:)`); they subscribe here like the others.
    let sharedObservations = SharedObservations()
    private static let quietLogger = Logger(label: "persistance.postgres.quiet") { _ in SwiftLogNoOpLogHandler() }

    init(configuration: PostgresConfiguration) {
        self.configuration = configuration
    }

    private var closedError: DatabaseError {
        DatabaseError(kind: .databaseClosed, message: "the PostgreSQL database is closed")
    }

    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// The server process of the listening connection, nil while none listens (for tests).
    var listenerBackendPID: Int32? { state.withLock { $0.listenerBackendPID } }

    /// Adds `subscriber` and returns its id once LISTEN is in effect: every commit after this
    /// returns reaches it (on the tables that have a trigger).
    /// - Throws: `DatabaseError.Kind.databaseClosed`; the error of connecting, when the listening
    ///   connection cannot be made; `CancellationError`.
    func subscribe(_ subscriber: Subscriber) async throws -> UInt64 {
        let (id, isListening) = try state.withLock { state in
            guard !state.isClosed else { throw closedError }
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            if state.listener == nil {
                state.listener = Task { [weak self] in await self?.listen() }
            }
            return (state.nextID, state.isListening)
        }
        guard !isListening else { return id }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let outcome = state.withLock { state -> Result<Void, any Error>? in
                        if state.isListening { return .success(()) }
                        if state.isClosed { return .failure(closedError) }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.waiting[id] = continuation
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: CancellationError())
            }
        } catch {
            unsubscribe(id)
            throw error
        }
        return id
    }

    /// Removes the subscriber `id`.
    func unsubscribe(_ id: UInt64) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Makes sure `tables` have their trigger, installing it where it lacks (see
    /// ``PostgresChangeTriggers/install(on:on:)``), through a connection of `client`.
    func installTriggers(on tables: Set<PostgresChangeTriggers.Table>, through client: PostgresClient) async throws {
        let missing = state.withLock { tables.subtracting($0.triggeredTables) }
        guard !missing.isEmpty else { return }
        try await withPooledConnection(of: client) { connection in
            try await PostgresChangeTriggers.install(on: missing, on: connection)
        }
        state.withLock { $0.triggeredTables.formUnion(missing) }
    }

    /// The tables known to have their trigger: installed by this notifier, or found in place.
    var triggeredTables: Set<PostgresChangeTriggers.Table> { state.withLock { $0.triggeredTables } }

    /// Runs `body` on a connection of `client`, with PostgreSQL's errors as `DatabaseError`s.
    func withPooledConnection<T: Sendable>(
        of client: PostgresClient, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard !isClosed else { throw closedError }
        do {
            return try await client.withConnection(isolation: #isolation) { connection in try await body(connection) }
        } catch let error as DatabaseError {
            throw error
        } catch {
            if isClosed { throw closedError }
            throw DatabaseError.postgres(error, sql: nil, address: configuration.address)
        }
    }

    /// Ends every subscriber and the listening connection; later subscriptions throw
    /// `DatabaseError.Kind.databaseClosed`. Returns once the connection is closed.
    func close() async {
        await shutDown()?.value
    }

    /// Ends every subscriber and stops the listening connection without waiting for it to close.
    @discardableResult
    func shutDown() -> Task<Void, Never>? {
        let (subscribers, waiting, listener) = state.withLock { state in
            guard !state.isClosed else { return ([Subscriber](), [CheckedContinuation<Void, any Error>](), state.listener) }
            state.isClosed = true
            defer {
                state.subscribers.removeAll()
                state.waiting.removeAll()
            }
            return (Array(state.subscribers.values), Array(state.waiting.values), state.listener)
        }
        listener?.cancel()
        for continuation in waiting { continuation.resume(throwing: closedError) }
        for subscriber in subscribers { subscriber.finish() }
        return listener
    }

    /// Listens until closed: connects, LISTENs, hands notifications on; connects again after a
    /// lost connection.
    private func listen() async {
        var hasListened = false
        var failures = 0
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let made = try await PostgresConnection.connect(
                    configuration: configuration.connectionConfiguration(), id: 0, logger: Self.quietLogger)
                connection = made
                try await made.listen(on: PostgresChangeTriggers.channel) { notifications in
                    let pid = try await backendPID(of: made)
                    startedListening(backendPID: pid, afterLosingConnection: hasListened)
                    hasListened = true
                    failures = 0
                    for try await notification in notifications {
                        deliver(.table(qualifiedName: notification.payload))
                    }
                }
            } catch {
                if !Task.isCancelled { failWaiting(with: error) }
            }
            stoppedListening()
            try? await connection?.close()
            failures += 1
            // 50 ms, 100 ms, … up to 2 s between attempts.
            let pause = min(2_000, 50 << min(failures - 1, 6))
            try? await Task.sleep(for: .milliseconds(pause))
        }
    }

    private func backendPID(of connection: PostgresConnection) async throws -> Int32 {
        let rows = try await connection.query("SELECT pg_backend_pid()", logger: Self.quietLogger).collect()
        return try rows.first?.decode(Int32.self) ?? 0
    }

    private func startedListening(backendPID: Int32, afterLosingConnection: Bool) {
        let waiting = state.withLock { state in
            state.isListening = true
            state.listenerBackendPID = backendPID
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        if afterLosingConnection { deliver(.unknown) }
        for continuation in waiting { continuation.resume() }
    }

    private func stoppedListening() {
        state.withLock { state in
            state.isListening = false
            state.listenerBackendPID = nil
        }
    }

    /// Subscribers waiting for LISTEN learn that it could not be set up; they are removed.
    private func failWaiting(with error: any Error) {
        let translated = DatabaseError.postgres(error, sql: nil, address: configuration.address)
        let waiting = state.withLock { state in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume(throwing: translated) }
    }

    private func deliver(_ notice: Notice) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.receive(notice) }
    }
}
#endif
