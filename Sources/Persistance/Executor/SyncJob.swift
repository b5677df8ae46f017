import Foundation
import Synchronization

/// One synchronous read or write: the submitting thread blocks in `wait()` until a pool
/// thread has run the block (or the job failed), like `DispatchQueue.sync`.
///
/// It carries a non-escaping, non-`Sendable` block across threads, which is safe only
/// because the submitting thread does nothing else until the job is done. The block stores
/// its value in the submitting caller's frame, so the job itself is not generic.
final class SyncJob: PoolJob, @unchecked Sendable {
    // @unchecked: `body`, `failure` and `isDone` are read and written only while `condition`
    // is locked. The submitting thread stores `body` before queueing the job and then blocks
    // in `wait()`; the pool thread takes `body` out (dropping the job's reference), runs it
    // and sets `isDone`, which `wait()` reads after being signalled. So at any moment only
    // one thread uses the block and its captures.
    private let condition = NSCondition()
    private var body: ((Connection) throws -> Void)?
    private var failure: (any Error)?
    private var isDone = false
    /// `isDone`, also kept outside the lock, for the submitting thread to watch for a moment
    /// before it sleeps (see `wait()`).
    private let doneHint = Atomic<Bool>(false)
    private let runner: BlockRunner

    /// A job for `body`, which must stay valid until `wait()` returns, run as `runner` says.
    init(_ runner: BlockRunner, _ body: @escaping (Connection) throws -> Void) {
        self.runner = runner
        self.body = body
    }

    /// Takes the block out of the job and runs it; every reference to the block is gone when
    /// the submitting thread is woken (as `withoutActuallyEscaping` requires).
    func run(on connection: Connection, beforeWaking becomeIdle: () -> Void) {
        let failure = runBody(on: connection)
        becomeIdle()
        finish(with: failure)
    }

    /// Takes the block out of the job, runs it and returns its error. The block is released
    /// when this returns, before `finish` wakes the submitting thread: a reference still held
    /// then would outlive the caller's `withoutActuallyEscaping`.
    private func runBody(on connection: Connection) -> (any Error)? {
        condition.lock()
        let body = self.body.take()
        condition.unlock()
        guard let body else { preconditionFailure("a synchronous job runs once") }
        do {
            try runner.run(body, on: connection, isCancelled: { false })
            return nil
        } catch {
            return error
        }
    }

    /// Fails the job with `error` without running its block.
    func fail(_ error: any Error) {
        condition.lock()
        body = nil
        condition.unlock()
        finish(with: error)
    }

    /// Blocks until the job has run or failed; throws the block's error or the failure.
    ///
    /// A small block runs in less time than waking a sleeping thread takes on a busy or
    /// virtual machine (tens of microseconds), so the thread first watches for the end of
    /// the job for a moment, yielding its processor between looks, and only then sleeps.
    func wait() throws {
        BriefWatch.run { doneHint.load(ordering: .acquiring) }
        condition.lock()
        while !isDone {
            condition.wait()
        }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    private func finish(with failure: (any Error)?) {
        condition.lock()
        self.failure = failure
        isDone = true
        doneHint.store(true, ordering: .releasing)
        condition.signal()
        condition.unlock()
    }
}
