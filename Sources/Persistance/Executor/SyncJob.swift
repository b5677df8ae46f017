import Synchronization

/// One synchronous read or write: the submitting thread blocks in `wait(watchingFirst:)`
/// until a pool thread has run the block (or the job failed), like `DispatchQueue.sync`.
///
/// It carries a non-escaping, non-`Sendable` block across threads, which is safe only
/// because the submitting thread does nothing else until the job is done. The block stores
/// its value in the submitting caller's frame, so the job itself is not generic.
final class SyncJob: PoolJob, @unchecked Sendable {
    // @unchecked: `body` is set before the job is queued and then used by one thread only:
    // the one that runs or fails the job, which got it from the pool's queue under the pool's
    // lock (or is the submitting thread itself, when the pool rejects the job at once). That
    // thread takes the block out, dropping the job's reference, before it marks the job done,
    // so every use of the block and its captures ends before the submitting thread goes on.
    private var body: ((Connection) throws -> Void)?
    /// Nil until the job is done; then the block's error or the job's failure, if any.
    private let outcome = Guarded<Result<Void, any Error>?>(nil)
    /// Whether the job is done, also kept outside the lock, for the submitting thread to
    /// watch for a moment before it sleeps (see `wait(watchingFirst:)`).
    private let doneHint = Atomic<Bool>(false)
    private let runner: BlockRunner

    /// A job for `body`, which must stay valid until `wait(watchingFirst:)` returns, run as
    /// `runner` says.
    init(_ runner: BlockRunner, _ body: @escaping (Connection) throws -> Void) {
        self.runner = runner
        self.body = body
    }

    /// Takes the block out of the job and runs it; every reference to the block is gone when
    /// the submitting thread is woken (as `withoutActuallyEscaping` requires).
    func run(on connection: Connection, beforeWaking becomeIdle: () -> Void) {
        let result = runBody(on: connection)
        becomeIdle()
        finish(with: result)
    }

    /// Takes the block out of the job, runs it and returns how it ended. The block is released
    /// when this returns, before `finish` wakes the submitting thread: a reference still held
    /// then would outlive the caller's `withoutActuallyEscaping`.
    private func runBody(on connection: Connection) -> Result<Void, any Error> {
        guard let body = body.take() else { preconditionFailure("a synchronous job runs once") }
        return Result { try runner.run(body, on: connection, isCancelled: { false }) }
    }

    /// Fails the job with `error` without running its block.
    func fail(_ error: any Error) {
        body = nil
        finish(with: .failure(error))
    }

    /// Blocks until the job has run or failed; throws the block's error or the failure.
    ///
    /// A small block runs in less time than waking a sleeping thread takes on a busy or
    /// virtual machine (tens of microseconds), so the thread first lets `watch` look for the
    /// end of the job for a moment (see `ConnectionPool.watchJob`), and only then sleeps.
    func wait(watchingFirst watch: (_ isDone: () -> Bool) -> Bool) throws {
        _ = watch { doneHint.load(ordering: .acquiring) }
        try outcome.wait(until: { $0 != nil }) { $0! }.get()
    }

    private func finish(with result: Result<Void, any Error>) {
        outcome.withLock(waking: .one) { outcome in
            outcome = result
            doneHint.store(true, ordering: .releasing)
        }
    }
}
