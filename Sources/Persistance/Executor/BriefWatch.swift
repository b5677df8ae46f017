import Foundation

/// How a thread about to sleep until something happens first watches for it for a moment.
///
/// Waking a sleeping thread, or resuming a suspended task, takes tens of microseconds on a
/// busy or virtual machine, more than a small read or write runs, so a thread that expects
/// the event soon (a pool thread that just finished a job; a caller, synchronous or
/// awaiting, whose job an awake pool thread took, see `ConnectionPool.watchJob`) looks for
/// it again and again, yielding its processor between looks, and sleeps or suspends only
/// when it has not come.
///
/// The watch ends after a few yields or its time limit (`DatabaseConfiguration.spinWait`),
/// whichever comes first. The time limit matters on a loaded machine: there a yield can hand
/// the processor away for a whole time slice, and a thread still watching would take its
/// next job only when scheduled again, later than a sleeping thread that the scheduler wakes
/// for it.
struct BriefWatch: Sendable {
    private static let yieldLimit = 64
    private let timeLimitNanoseconds: UInt64

    /// A watch that lasts `timeLimit` at most (one second at most); none at all (one look)
    /// when it is zero or less.
    init(timeLimit: Duration) {
        let limit = min(max(timeLimit, .zero), .seconds(1))
        timeLimitNanoseconds = UInt64(limit.components.seconds) * 1_000_000_000
            + UInt64(limit.components.attoseconds / 1_000_000_000)
    }

    /// Whether the watch looks more than once.
    var watches: Bool { timeLimitNanoseconds > 0 }

    /// Looks at `hasHappened` until it answers true, for a moment at most; returns whether it did.
    @discardableResult
    func run(until hasHappened: () -> Bool) -> Bool {
        if hasHappened() { return true }
        guard watches else { return false }
        let deadline = Self.now() &+ timeLimitNanoseconds
        for _ in 0..<Self.yieldLimit {
            sched_yield()
            if hasHappened() { return true }
            if Self.now() > deadline { return false }
        }
        return false
    }

    /// The monotonic clock in nanoseconds (`clock_gettime` directly: `DispatchTime.now()`
    /// costs many times more).
    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
