#if PostgreSQL
import Persistance
import PostgresNIO
import Synchronization

/// Watches one pooled connection for its end, so that a statement waiting on it ends too.
///
/// postgres-nio leaves a statement sent to a connection that is closing (the server terminated its
/// backend) waiting forever. Each statement therefore runs in a task of its own while the caller
/// waits for the first of: its result, or the connection's close (`DatabaseError.Kind.connectionLost`).
final class ConnectionWatch: Sendable {
    /// The server process of the connection, for cancel requests.
    let backendPID: Int32
    private let address: String
    private struct State {
        var isClosed = false
        var pending: StatementOutcome?
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
        pending?.resume(.failure(lost))
    }

    /// The rows of `query` on `connection`, or `connectionLost` when the connection closes first.
    func rows(of query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws -> [PostgresRow] {
        let lost = lost
        let rows = try await withCheckedThrowingContinuation { continuation in
            let outcome = StatementOutcome(continuation)
            let isClosed = state.withLock { state in
                if !state.isClosed { state.pending = outcome }
                return state.isClosed
            }
            if isClosed { return outcome.resume(.failure(lost)) }
            Task {
                do {
                    outcome.resume(.success(try await connection.query(query, logger: logger).collect()))
                } catch {
                    outcome.resume(.failure(error))
                }
            }
        }
        state.withLock { $0.pending = nil }
        return rows
    }
}

/// A continuation resumed once, by whichever comes first.
final class StatementOutcome: Sendable {
    private let continuation: Mutex<CheckedContinuation<[PostgresRow], any Error>?>

    init(_ continuation: CheckedContinuation<[PostgresRow], any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ result: Result<[PostgresRow], any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
#endif
