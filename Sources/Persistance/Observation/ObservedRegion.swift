/// What one value observation last fetched: the tables it read and the commit its value
/// reflects; and whether a later commit touched those tables.
///
/// Fetches run on a reader while commits go on, so the tables a fetch reads are known only
/// when it ends: the commits announced while it runs are kept until then, and those its
/// snapshot did not see count against the tables it turned out to read.
final class ObservedRegion: Sendable {
    private struct State: Sendable {
        /// The lowercased names of the tables the last fetch read; nil before the first fetch.
        var tables: Set<String>?
        /// The sequence number of the last commit the last fetch saw.
        var fetchedSequence: UInt64 = 0
        /// The sequence number of the last commit that touched `tables`.
        var touchedSequence: UInt64 = 0
        /// Whether a fetch runs.
        var isFetching = false
        /// The commits announced while the fetch runs, oldest first.
        var announcedWhileFetching: [CommittedChanges] = []
    }

    private let state = Guarded(State())

    /// Records that a fetch starts (before it takes its snapshot).
    func willFetch() {
        state.withLock { state in
            state.isFetching = true
            state.announcedWhileFetching = []
        }
    }

    /// Records a fetch that read `tables` (nil: unknown, so any change counts) and saw every
    /// commit up to `sequence`, and none after.
    func didFetch(tables: Set<String>?, sequence: UInt64) {
        state.withLock { state in
            state.tables = tables
            state.fetchedSequence = sequence
            for batch in state.announcedWhileFetching where batch.sequence > sequence && batch.touches(tables) {
                state.touchedSequence = max(state.touchedSequence, batch.sequence)
            }
            state.isFetching = false
            state.announcedWhileFetching = []
        }
    }

    /// Records `batch` if it is newer than the last fetch and touches its tables (or may
    /// touch the running fetch's); returns whether it did.
    func record(_ batch: CommittedChanges) -> Bool {
        state.withLock { state in
            guard batch.sequence > state.fetchedSequence else { return false }
            if state.isFetching {
                state.announcedWhileFetching.append(batch)
                return true
            }
            guard batch.touches(state.tables) else { return false }
            state.touchedSequence = batch.sequence
            return true
        }
    }

    /// Whether a commit the last fetch did not see touched its tables.
    var isStale: Bool {
        state.withLock { $0.touchedSequence > $0.fetchedSequence }
    }
}
