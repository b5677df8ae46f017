/// What one value observation last fetched: the tables it read and the commit its value
/// reflects; and whether a later commit touched those tables. Updated on the writer's
/// thread only (by fetches and announcements, which run there in order); read by the
/// observation's task.
final class ObservedRegion: Sendable {
    private struct State {
        /// The lowercased names of the tables the last fetch read; nil before the first fetch.
        var tables: Set<String>?
        /// The sequence number of the last commit the last fetch saw.
        var fetchedSequence: UInt64 = 0
        /// The sequence number of the last commit that touched `tables`.
        var touchedSequence: UInt64 = 0
    }

    private let state = Guarded(State())

    /// Records a fetch that read `tables` (nil: unknown, so any change counts) and saw every
    /// commit up to `sequence`.
    func didFetch(tables: Set<String>?, sequence: UInt64) {
        state.withLock { state in
            state.tables = tables
            state.fetchedSequence = sequence
        }
    }

    /// Records `batch` if it is newer than the last fetch and touches its tables; returns
    /// whether it did.
    func record(_ batch: CommittedChanges) -> Bool {
        state.withLock { state in
            guard batch.sequence > state.fetchedSequence, batch.touches(state.tables) else { return false }
            state.touchedSequence = batch.sequence
            return true
        }
    }

    /// Whether a commit the last fetch did not see touched its tables.
    var isStale: Bool {
        state.withLock { $0.touchedSequence > $0.fetchedSequence }
    }
}
