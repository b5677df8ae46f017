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
final class AsyncJob: PoolJob {
    private enum State {
        /// Waiting for a thread; with the awaiting task's continuation once it has suspended.
        case queued(UnsafeContinuation<Void, Never>?)
        case running(UnsafeContinuation<Void, Never>?, InterruptHandle, isCancelled: Bool)
        /// Over, with the block's error or the job's failure, if any.
        case finished((any Error)?)
    }

    // A pthread lock (`Guarded`), not the standard library's `Mutex`: ThreadSanitizer sees
    // the former's ordering and not the latter's on Linux.
    private let state = Guarded(State.queued(nil))
    private let isOverHint = Atomic<Bool>(false)
    private let runner: BlockRunner
    private let body: @Sendable (Connection) throws -> Void

    /// A job that runs `body` as `runner` says.
    init(_ runner: BlockRunner, _ body: @escaping @Sendable (Connection) throws -> Void) {
        self.runner = runner
        self.body = body
    }

    /// Whether the job is over (without taking the lock, for a task watching it).
    var isOver: Bool {
        isOverHint.load(ordering: .acquiring)
    }

    /// Hands over the suspended awaiting task's continuation, resuming it at once if the job
    /// is over already.
    func attach(_ continuation: UnsafeContinuation<Void, Never>) {
        let isOver = state.withLock { state -> Bool in
            switch state {
            case .queued(nil):
                state = .queued(continuation)
            case .running(nil, let interruptHandle, let isCancelled):
                state = .running(continuation, interruptHandle, isCancelled: isCancelled)
            case .finished:
                return true
            case .queued(.some), .running(.some, _, _):
                preconditionFailure("a job's continuation is attached once")
            }
            return false
        }
        if isOver { continuation.resume() }
    }

    /// The block's error or the job's failure, once the job is over.
    func outcome() -> (any Error)? {
        state.withLock { state in
            guard case .finished(let failure) = state else { preconditionFailure("the job is not over") }
            return failure
        }
    }

    /// Cancels the job: a queued job finishes now with `CancellationError`; a running one
    /// has its statement interrupted.
    func cancel() {
        let (finishes, continuation) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
            switch state {
            case .queued(let continuation):
                state = .finished(CancellationError())
                return (true, continuation)
            case .running(let continuation, let interruptHandle, _):
                state = .running(continuation, interruptHandle, isCancelled: true)
                // Under the lock: the job cannot finish meanwhile, so the interrupt only
                // reaches this job's statements, never the next job's.
                interruptHandle.interrupt()
            case .finished:
                break
            }
            return (false, nil)
        }
        if finishes { announceOver(resuming: continuation) }
    }

    /// Runs the block on `connection` in its transaction, unless the job was cancelled or
    /// failed while queued, and resumes the awaiting task if it has suspended.
    func run(on connection: Connection, beforeWaking becomeIdle: () -> Void) {
        let starts = state.withLock { state -> Bool in
            guard case .queued(let continuation) = state else { return false }
            state = .running(continuation, connection.interruptHandle, isCancelled: false)
            return true
        }
        guard starts else { return becomeIdle() }
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
        let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard case .running(let continuation, _, let isCancelled) = state else { return nil }
            state = .finished(failure.map { isCancelled ? CancellationError() : $0 })
            return continuation
        }
        becomeIdle()
        announceOver(resuming: continuation)
    }

    /// Finishes the job with `error` if it has not started.
    func fail(_ error: any Error) {
        let (fails, continuation) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
            guard case .queued(let continuation) = state else { return (false, nil) }
            state = .finished(error)
            return (true, continuation)
        }
        if fails { announceOver(resuming: continuation) }
    }

    /// Tells a watching task (`isOver`) and a suspended one (`continuation`) that the job
    /// is over; its outcome is set already.
    private func announceOver(resuming continuation: UnsafeContinuation<Void, Never>?) {
        isOverHint.store(true, ordering: .releasing)
        continuation?.resume()
    }

    /// Whether the job has been cancelled since it started running.
    var isCancelled: Bool {
        state.withLock { state in
            if case .running(_, _, isCancelled: true) = state { return true }
            return false
        }
    }
}
