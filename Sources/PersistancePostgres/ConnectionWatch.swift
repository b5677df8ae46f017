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
    /// Runs the tasks that run the connection's prepared statements on its event loop.
    let executor: EventLoopTaskExecutor
    private let address: String
    private struct State {
        var isClosed = false
        /// Fails the statement waiting, when the connection closes.
        var pending: (@Sendable (DatabaseError) -> Void)?
    }
    private let state = Mutex(State())

    init(connection: PostgresConnection, backendPID: Int32, address: String) {
        self.backendPID = backendPID
        self.address = address
        executor = EventLoopTaskExecutor(connection.eventLoop)
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed() }
    }

    private var lost: DatabaseError {
        DatabaseError(kind: .connectionLost, message: "the connection to \(address) was lost")
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

    /// `body`'s value, computed in a task of its own, or `connectionLost` when the connection
    /// closes first. On `.connectionLoop`, the task runs on the connection's event loop: a
    /// statement is sent from the loop and its rows converted where postgres-nio delivers them,
    /// then this caller is resumed once, saving the hops between the loop and another thread
    /// for a row or two. On `.global`, a statement's rows are left for the caller to read (as
    /// they arrive, while the loop reads the next ones); a connection lost later fails them.
    func run<Value: Sendable>(
        on executor: StatementExecutor, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await race { outcome in
            let task: @concurrent @Sendable () async -> Void = {
                do {
                    outcome.resume(.success(try await body()))
                } catch {
                    outcome.resume(.failure(error))
                }
            }
            switch executor {
            case .connectionLoop: Task(executorPreference: self.executor, operation: task)
            // Not `Task(executorPreference: nil)`: a task made that way looks for a preference,
            // under a lock, every time it changes executor (every batch of rows).
            case .global: Task(operation: task)
            }
        }
    }

    /// Where ``run(on:_:)`` runs its task.
    enum StatementExecutor {
        /// The connection's event loop.
        case connectionLoop
        /// The global concurrent executor.
        case global
    }


    /// The value `start` delivers to its outcome, or `connectionLost` if the connection closes first.
    func race<Value: Sendable>(_ start: (StatementOutcome<Value>) -> Void) async throws -> Value {
        let lost = lost
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
