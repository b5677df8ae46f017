import Synchronization

/// One asynchronous read or write, shared by the task that awaits it (and may cancel it)
/// and the pool thread that runs it.
///
/// Not generic, so the executor's hot path runs no unspecialized generic code: the block
/// it runs stores its value where the awaiting (specialized) caller reads it.
///
/// Cancelled while queued, the job resumes its task at once with `CancellationError` and
/// never starts. Cancelled while running, it interrupts the connection's running statement;
/// a block that then fails reports `CancellationError`.
final class AsyncJob: PoolJob {
    private enum State {
        /// Waiting for the awaiting task's continuation.
        case created
        /// The task was cancelled before the continuation arrived.
        case cancelledEarly
        case queued(UnsafeContinuation<Void, any Error>)
        case running(UnsafeContinuation<Void, any Error>, InterruptHandle, isCancelled: Bool)
        case finished
    }

    // A pthread lock (`Guarded`), not the standard library's `Mutex`: ThreadSanitizer sees
    // the former's ordering and not the latter's on Linux.
    private let state = Guarded(State.created)
    /// Set, releasing, once the job has run or failed, before the awaiting task is resumed:
    /// see `acquireOutcome()`.
    private let isOver = Atomic<Bool>(false)
    private let runner: BlockRunner
    private let body: @Sendable (Connection) throws -> Void

    /// A job that runs `body` as `runner` says.
    init(_ runner: BlockRunner, _ body: @escaping @Sendable (Connection) throws -> Void) {
        self.runner = runner
        self.body = body
    }

    /// Hands over the awaiting task's continuation. Returns false, having resumed it with
    /// `CancellationError`, when the task was cancelled already; the job must then not be queued.
    func attach(_ continuation: UnsafeContinuation<Void, any Error>) -> Bool {
        let isCancelled = state.withLock { state -> Bool in
            guard case .created = state else {
                state = .finished
                return true
            }
            state = .queued(continuation)
            return false
        }
        if isCancelled {
            continuation.resume(throwing: CancellationError())
        }
        return !isCancelled
    }

    /// Cancels the job: a queued job finishes now with `CancellationError`; a running one
    /// has its statement interrupted.
    func cancel() {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            switch state {
            case .created:
                state = .cancelledEarly
            case .queued(let continuation):
                state = .finished
                return continuation
            case .running(let continuation, let interruptHandle, _):
                state = .running(continuation, interruptHandle, isCancelled: true)
                // Under the lock: the job cannot finish meanwhile, so the interrupt only
                // reaches this job's statements, never the next job's.
                interruptHandle.interrupt()
            case .cancelledEarly, .finished:
                break
            }
            return nil
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// Runs the block on `connection` in its transaction, unless the job was cancelled or
    /// failed while queued, and resumes the awaiting task with its outcome.
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
        let (continuation, wasCancelled) = state.withLock { state -> (UnsafeContinuation<Void, any Error>?, Bool) in
            guard case .running(let continuation, _, let isCancelled) = state else { return (nil, false) }
            state = .finished
            return (continuation, isCancelled)
        }
        becomeIdle()
        isOver.store(true, ordering: .releasing)
        if let failure {
            continuation?.resume(throwing: wasCancelled ? CancellationError() : failure)
        } else {
            continuation?.resume()
        }
    }

    /// Resumes the awaiting task with `error` if the job has not started.
    func fail(_ error: any Error) {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            guard case .queued(let continuation) = state else { return nil }
            state = .finished
            return continuation
        }
        isOver.store(true, ordering: .releasing)
        continuation?.resume(throwing: error)
    }

    /// Called by the awaiting task once resumed: acquires what the pool thread wrote before
    /// resuming it (the block's value, kept by the caller). Resuming a continuation orders
    /// those writes already, inside the Swift runtime, where ThreadSanitizer cannot see it;
    /// this pair of atomic operations states the same order where it can.
    func acquireOutcome() {
        _ = isOver.load(ordering: .acquiring)
    }

    /// Whether the job has been cancelled since it started running.
    var isCancelled: Bool {
        state.withLock { state in
            if case .running(_, _, isCancelled: true) = state { return true }
            return false
        }
    }
}
