import Synchronization

/// Whether a caller waiting for its job on a pool first watches for the job's end (see
/// `BriefWatch`), learned from how the last watches on that pool went.
///
/// A watch pays off when blocks end within it, and when they run longer (a scan, a batch of
/// inserts) it wastes a processor for its whole length: on a loaded machine, time taken
/// from the threads doing the work. So callers watch while watches succeed; after two
/// failed watches in a row they stop, and every sixteenth job one of them watches again, to
/// notice when the pool's blocks have become short again. Races between callers only blur
/// the count, which is a guess either way.
struct WatchPolicy: ~Copyable, Sendable {
    /// Above zero: callers watch, and it counts down failures. Zero or below: they do not,
    /// and it counts up to the next trial watch.
    private let score = Atomic<Int>(trustedScore)
    private static let trustedScore = 2
    private static let jobsWithoutWatching = 15

    /// Watches with `watch` until `hasHappened` answers true, if watching has been paying
    /// off; returns whether it happened meanwhile.
    func watch(_ watch: BriefWatch, until hasHappened: () -> Bool) -> Bool {
        if score.load(ordering: .relaxed) <= 0, score.add(1, ordering: .relaxed).newValue <= 0 { return false }
        let happened = watch.run(until: hasHappened)
        if happened {
            score.store(Self.trustedScore, ordering: .relaxed)
        } else if score.subtract(1, ordering: .relaxed).newValue <= 0 {
            score.store(-Self.jobsWithoutWatching, ordering: .relaxed)
        }
        return happened
    }
}
