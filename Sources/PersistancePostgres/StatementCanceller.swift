#if PostgreSQL
import PostgresNIO
import Synchronization

/// Cancels what one transaction's connection is running when the task running it is cancelled.
///
/// postgres-nio does not send PostgreSQL's cancel request, so the cancel goes through another
/// pooled connection as `SELECT pg_cancel_backend(pid)`. The transaction awaits that request
/// (``settle()``) before its connection returns to the pool, so the cancel cannot reach a statement
/// of the connection's next user (a cancel that arrives while the backend waits for a command is
/// ignored by the server).
final class StatementCanceller: Sendable {
    private struct State {
        var request: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let client: PostgresClient
    private let backendPID: Int32

    init(client: PostgresClient, backendPID: Int32) {
        self.client = client
        self.backendPID = backendPID
    }

    /// Whether a cancel was requested.
    var wasCancelled: Bool { state.withLock { $0.request != nil } }

    /// Asks the server, once, to cancel the backend's running statement.
    func cancel() {
        state.withLock { state in
            guard state.request == nil else { return }
            let client = client
            let query: PostgresQuery = "SELECT pg_cancel_backend(\(backendPID))"
            state.request = Task {
                do {
                    for try await _ in try await client.query(query) {}
                } catch {
                    // The statement then runs to its end: nothing else to do.
                }
            }
        }
    }

    /// Waits until a requested cancel has been delivered.
    func settle() async {
        await state.withLock { $0.request }?.value
    }
}
#endif
