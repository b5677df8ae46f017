#if PostgreSQL
import Persistance
import PostgresNIO
import Synchronization

/// Watches one pooled connection for its end, so that a statement waiting on it ends too.
///
/// postgres-nio leaves a statement sent to a connection that is closing (the server terminated its
/// backend) waiting forever. The caller of a statement therefore waits for the first of: its
/// result, or the connection's close (`DatabaseError.Kind.connectionLost`).
final class ConnectionWatch: Sendable {
    /// The server process of the connection, for cancel requests.
    let backendPID: Int32
    /// The statements prepared on the connection.
    let statements = PreparedStatementCache()
    /// The error of a statement the connection's close ends, made once (statements are many).
    private let lost: DatabaseError
    /// The connection's event loop, where statements are sent.
    private let executor: EventLoopTaskExecutor
    private struct State {
        var isClosed = false
        /// Fails the statement waiting, when the connection closes.
        var pending: (@Sendable (DatabaseError) -> Void)?
    }
    private let state = Mutex(State())

    init(connection: PostgresConnection, backendPID: Int32, address: String) {
        self.backendPID = backendPID
        lost = DatabaseError(kind: .connectionLost, message: "the connection to \(address) was lost")
        executor = EventLoopTaskExecutor(connection.eventLoop)
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed() }
    }

    private func connectionClosed() {
        let pending = state.withLock { state in
            state.isClosed = true
            defer { state.pending = nil }
            return state.pending
        }
        pending?(lost)
    }

    /// Every row of `query` on `connection` and its command tag, or `connectionLost` when the
    /// connection closes first.
    func result(of query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws
        -> PostgresQueryResult
    {
        try await race { outcome in
            connection.query(query, logger: logger).whenComplete { outcome.resume($0) }
        }
    }

    /// Runs `operation` with the connection's event loop as its task's preferred executor: a
    /// transaction's statements then go out and their results come back with no thread switch.
    func onEventLoop<T>(_ operation: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(executor, operation: operation)
    }

    /// `start`'s value, computed on the connection's event loop once the connection is found
    /// open there, or `connectionLost`: for sending a statement through postgres-nio's async API.
    ///
    /// postgres-nio hands a statement to the connection's channel and waits for the promise its
    /// handler completes; a channel already closed drops the statement with its promise, and
    /// the caller would wait forever. On the loop, nothing closes the channel between the look
    /// and the write, and a channel open at the write fails its statements when it closes. A
    /// caller already on the loop (see ``onEventLoop(_:)``) stays there; one isolated to an actor
    /// hops to the loop and back in its own task.
    func run<Value: Sendable>(
        on connection: PostgresConnection, _ start: @Sendable () async throws -> Value
    ) async throws -> Value {
        // A transaction's task prefers the loop already (``onEventLoop(_:)``): no second preference.
        let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
        if preferred == executor.asUnownedTaskExecutor() {
            return try await Self.runOnLoop(connection, lost, start)
        }
        return try await withTaskExecutorPreference(executor) {
            try await Self.runOnLoop(connection, lost, start)
        }
    }

    /// `start`'s value when `connection` is open, run on the preferred executor (the loop).
    @concurrent private static func runOnLoop<Value: Sendable>(
        _ connection: PostgresConnection, _ lost: DatabaseError, _ start: @Sendable () async throws -> Value
    ) async throws -> Value {
        guard !connection.isClosed else { throw lost }
        return try await start()
    }

    /// The value `start` delivers to its outcome, or `connectionLost` if the connection closes first.
    func race<Value: Sendable>(_ start: (StatementOutcome<Value>) -> Void) async throws -> Value {
        let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let outcome = StatementOutcome(continuation)
            let isClosed = state.withLock { state in
                if !state.isClosed { state.pending = { outcome.resume(.failure($0)) } }
                return state.isClosed
            }
            if isClosed { return outcome.resume(.failure(lost)) }
            start(outcome)
        }
        state.withLock { $0.pending = nil }
        return value
    }
}

/// A continuation resumed once, by whichever comes first.
final class StatementOutcome<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ result: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
#endif
