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
    /// closes first: for starting a statement, whose rows the caller then reads as they arrive
    /// (a connection lost later fails their iteration).
    func run<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await race { outcome in
            Task {
                do {
                    outcome.resume(.success(try await body()))
                } catch {
                    outcome.resume(.failure(error))
                }
            }
        }
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
