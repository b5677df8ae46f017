import Foundation

extension Database {
    /// How many times a reader tries to take a snapshot between two commits before the
    /// observations' fetches fall back to the writer.
    static let settledSnapshotAttempts = 1_000
    /// How many of those attempts only yield the processor while a commit is under way; later
    /// ones sleep `settledSnapshotPause`, so that on a saturated machine the committing thread
    /// gets to finish (yielding alone let a round give up within microseconds and run on the
    /// writer, holding up the writes).
    static let settledSnapshotYields = 64
    /// The pause of the later attempts, in microseconds.
    static let settledSnapshotPause: UInt32 = 50
}

extension Connection {
    /// Makes sure the open read transaction's snapshot sees exactly the commits `tracker`
    /// had announced at a moment when none was under way, and returns the last one's
    /// sequence number; nil when no such moment was found (commits kept landing).
    ///
    /// The snapshot taken as the read began qualifies if no commit happened since
    /// `settledBefore` (looked at before the read began). Otherwise the transaction
    /// restarts, its new snapshot taken between two looks at the tracker.
    func settleSnapshot(with tracker: ChangeTracker, settledBefore: ChangeTracker.Settled?) throws -> UInt64? {
        if let settledBefore, tracker.isStill(settledBefore) { return settledBefore.sequence }
        for attempt in 0..<Database.settledSnapshotAttempts {
            guard let settled = tracker.settled else {
                if attempt < Database.settledSnapshotYields {
                    sched_yield()
                } else {
                    usleep(Database.settledSnapshotPause)
                }
                continue
            }
            try execute("COMMIT")
            try execute("BEGIN DEFERRED")
            try takeSnapshot()
            if tracker.isStill(settled) { return settled.sequence }
        }
        return nil
    }
}
