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
/// whichever comes first. On a loaded machine it does not start at all: there a yield can
/// hand the processor away for a whole time slice, and a thread still watching would take
/// its next job only when scheduled again, later than a sleeping thread that the scheduler
/// wakes for it, while the thread it watches for may be waiting for that very processor. So
/// while the machine has more runnable threads than processors (`MachineLoad`), the watch
/// looks once and returns. A watch of the longest limit, one second, ignores the load: it
/// exists for tools that run the code many times slower on a processor of their own, such
/// as valgrind counting instructions.
struct BriefWatch: Sendable {
    private static let yieldLimit = 64
    private let timeLimitNanoseconds: UInt64
    /// Whether the machine is loaded too heavily to watch; nil ignores the load.
    private let load: MachineLoad?

    /// A watch that lasts `timeLimit` at most (one second at most); none at all (one look)
    /// when it is zero or less, and none while `load` finds the machine overloaded unless
    /// the limit is one second or more.
    init(timeLimit: Duration, load: MachineLoad = .shared) {
        let limit = min(max(timeLimit, .zero), .seconds(1))
        timeLimitNanoseconds = UInt64(limit.components.seconds) * 1_000_000_000
            + UInt64(limit.components.attoseconds / 1_000_000_000)
        self.load = limit < .seconds(1) ? load : nil
    }

    /// Whether the watch looks more than once.
    var watches: Bool { timeLimitNanoseconds > 0 }

    /// Looks at `hasHappened` until it answers true, for a moment at most; returns whether it did.
    /// `begin` runs when the watch goes on past its first look (not on an overloaded
    /// machine), and `end` when that watch ends.
    @discardableResult
    func run(until hasHappened: () -> Bool, beginning begin: () -> Void = {}, ending end: () -> Void = {}) -> Bool {
        if hasHappened() { return true }
        guard watches else { return false }
        let start = Self.now()
        if let load {
            if load.isOverloaded(at: start) { return false }
            load.beginWatching()
        }
        begin()
        defer {
            end()
            load?.endWatching()
        }
        let deadline = start &+ timeLimitNanoseconds
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
