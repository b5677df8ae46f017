#if PostgreSQL
import Synchronization

/// What one PostgreSQL value observation last read, and whether it must fetch again: the
/// notifications it hears are matched against the tables its last fetch read.
///
/// A notification heard while a fetch runs may be for a commit the fetch's snapshot did not
/// see, on a table that fetch reads for the first time: those are kept and matched against
/// what the fetch read once it ends, so that no commit is missed.
final class PostgresObservedRegion: Sendable {
    private struct State {
        /// The tables (`schema.table`) the last fetch read.
        var tables: Set<String> = []
        var isFetching = false
        /// The tables notified while the fetch ran.
        var heardDuringFetch: Set<String> = []
        /// Whether commits may have gone unheard while the fetch ran.
        var missedDuringFetch = false
        var needsFetch = false
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State())

    /// Notes a notification: the observation must fetch again if it touched what it read.
    func note(_ notice: PostgresChangeNotifier.Notice) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            switch notice {
            case .unknown where state.isFetching: state.missedDuringFetch = true
            case .table(let table) where state.isFetching: state.heardDuringFetch.insert(table)
            case .unknown: state.needsFetch = true
            case .table(let table): if state.tables.contains(table) { state.needsFetch = true }
            }
            return state.needsFetch ? state.waiter.take() : nil
        }
        waiter?.resume()
    }

    /// A fetch starts: what is heard until it ends is matched against what it reads.
    func beginFetch() {
        state.withLock { state in
            state.isFetching = true
            state.heardDuringFetch = []
            state.missedDuringFetch = false
        }
    }

    /// The fetch read `tables`; it must run again if what was heard meanwhile touched them.
    func endFetch(read tables: Set<String>) {
        state.withLock { state in
            state.isFetching = false
            state.tables = tables
            if state.missedDuringFetch || !state.heardDuringFetch.isDisjoint(with: tables) {
                state.needsFetch = true
            }
        }
    }

    /// Returns once a fetch is needed, and marks it done.
    /// - Throws: `CancellationError` when the task is cancelled.
    func waitUntilNeedsFetch() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.needsFetch { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiter = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume(throwing: CancellationError())
        }
        state.withLock { $0.needsFetch = false }
    }
}
#endif
