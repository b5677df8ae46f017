import Foundation
import Synchronization

/// One asynchronous read or write, shared by the task that awaits it (and may cancel it)
/// and the pool thread that runs it.
///
/// Not generic, so the executor's hot path runs no unspecialized generic code: the block
/// it runs stores its value where the awaiting (specialized) caller reads it.
///
/// The awaiting task submits the job, may watch it for a moment (`isOver`), and otherwise
/// suspends and hands over its continuation (`attach`); either way it then reads the
/// job's `outcome()`.
///
/// A job counts as queued from the start. Cancelled before it runs (before it is even
/// submitted, when its task was cancelled already), it is over at once with
/// `CancellationError` and never starts. Cancelled while running, it interrupts the
/// connection's running statement; a block that then fails reports `CancellationError`.
///
/// Its state is one atomic set of flags rather than a locked value: each step (start,
/// attach, cancel, end) is one atomic operation, with no lock or lock object per job.
/// Whoever sets a flag owns the fields it publishes (see `Flags`).
final class AsyncJob: PoolJob, @unchecked Sendable {
    // @unchecked: `continuation`, `failure` and `interruptHandle` are each written by one
    // side before the atomic operation that publishes them, and read by the other only
    // after it has seen that operation's flag.

    /// The job's state. A job is queued while it has none of `started`, `rejected`, `over`.
    private struct Flags: OptionSet {
        let rawValue: UInt8
        /// A pool thread runs it (and has set `interruptHandle`); set once, while queued.
        static let started = Flags(rawValue: 1 << 0)
        /// Its pool is failing it (and sets `failure` before `over`); set once, while queued.
        static let rejected = Flags(rawValue: 1 << 1)
        /// Over: its outcome is final.
        static let over = Flags(rawValue: 1 << 2)
        /// The awaiting task has suspended and set `continuation`: whoever sets `over`
        /// afterwards resumes it.
        static let suspended = Flags(rawValue: 1 << 3)
        /// Cancelled: before it started (then it is over) or while it ran.
        static let cancelled = Flags(rawValue: 1 << 4)
        /// A cancel is interrupting the running statement: the job does not end meanwhile,
        /// so the interrupt never reaches the connection's next job.
        static let interrupting = Flags(rawValue: 1 << 5)
    }

    private let flags = Atomic<UInt8>(0)
    private let runner: BlockRunner
    private let body: @Sendable (Connection) throws -> Void
    @exclusivity(unchecked) private var continuation: UnsafeContinuation<Void, Never>?
    @exclusivity(unchecked) private var failure: (any Error)?
    @exclusivity(unchecked) private var interruptHandle: InterruptHandle?

    /// A job that runs `body` as `runner` says.
    init(_ runner: BlockRunner, _ body: @escaping @Sendable (Connection) throws -> Void) {
        self.runner = runner
        self.body = body
    }

    private var current: Flags {
        Flags(rawValue: flags.load(ordering: .acquiring))
    }

    /// Sets `flags` when `current` is still the state; returns whether it was.
    private func update(_ current: Flags, adding added: Flags) -> Bool {
        flags.compareExchange(
            expected: current.rawValue, desired: current.union(added).rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }

    /// Whether the job is over (for a task watching it).
    var isOver: Bool {
        current.contains(.over)
    }

    /// Hands over the suspended awaiting task's continuation, resuming it at once if the job
    /// is over already.
    func attach(_ continuation: UnsafeContinuation<Void, Never>) {
        self.continuation = continuation
        let before = Flags(rawValue: flags.bitwiseOr(Flags.suspended.rawValue, ordering: .acquiringAndReleasing).oldValue)
        precondition(!before.contains(.suspended), "a job's continuation is attached once")
        if before.contains(.over) { continuation.resume() }
    }

    /// The block's error or the job's failure, once the job is over.
    func outcome() -> (any Error)? {
        let state = current
        precondition(state.contains(.over), "the job is not over")
        if state.contains(.cancelled), !state.contains(.started) || failure != nil { return CancellationError() }
        return failure
    }

    /// Cancels the job: a queued job is over now, with `CancellationError`; a running one
    /// has its statement interrupted.
    func cancel() {
        while true {
            let state = current
            if !state.isDisjoint(with: [.over, .rejected, .cancelled]) { return }
            if !state.contains(.started) {
                guard update(state, adding: [.over, .cancelled]) else { continue }
                return announceOver(after: state)
            }
            guard update(state, adding: [.cancelled, .interrupting]) else { continue }
            interruptHandle?.interrupt()
            flags.bitwiseAnd(~Flags.interrupting.rawValue, ordering: .releasing)
            return
        }
    }

    /// Runs the block on `connection` in its transaction, unless the job was cancelled or
    /// failed while queued, and resumes the awaiting task if it has suspended.
    func run(on connection: Connection, beforeWaking becomeIdle: () -> Void) {
        interruptHandle = connection.interruptHandle
        guard start() else { return becomeIdle() }
        var failure: (any Error)?
        do {
            try connection.interruptingStatements(whenCancelled: self) {
                try runner.run(body, on: connection) { self.isCancelled }
            }
        } catch {
            failure = error
        }
        // A cancellation can interrupt the transaction's own ROLLBACK too; a transaction left
        // open would freeze the connection's snapshot for every later block. End it now that
        // statements are no longer interrupted.
        if connection.isInTransaction {
            try? connection.execute("ROLLBACK")
        }
        self.failure = failure
        let state = end()
        becomeIdle()
        announceOver(after: state)
    }

    /// Marks the queued job started; false when it was cancelled or is being failed.
    private func start() -> Bool {
        while true {
            let state = current
            if !state.isDisjoint(with: [.over, .rejected]) { return false }
            if update(state, adding: .started) { return true }
        }
    }

    /// Marks the started job over once no cancel is interrupting it; returns the state before.
    private func end() -> Flags {
        while true {
            let state = current
            if state.contains(.interrupting) {
                sched_yield()
                continue
            }
            if update(state, adding: .over) { return state }
        }
    }

    /// Finishes the job with `error` if it has not started.
    func fail(_ error: any Error) {
        while true {
            let state = current
            if !state.isDisjoint(with: [.over, .started, .rejected]) { return }
            if update(state, adding: .rejected) { break }
        }
        failure = error
        let before = Flags(rawValue: flags.bitwiseOr(Flags.over.rawValue, ordering: .acquiringAndReleasing).oldValue)
        announceOver(after: before)
    }

    /// Resumes the awaiting task if it had suspended before the job went over (`before` is
    /// the state just before); a watching task sees `isOver`.
    private func announceOver(after before: Flags) {
        if before.contains(.suspended) { continuation?.resume() }
    }

    /// Whether the job has been cancelled since it started running.
    var isCancelled: Bool {
        current.contains(.cancelled)
    }
}
