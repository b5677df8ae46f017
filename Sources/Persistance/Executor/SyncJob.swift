import Foundation

/// One synchronous read or write: the submitting thread blocks in `wait()` until a pool
/// thread has run the block (or the job failed), like `DispatchQueue.sync`.
///
/// It carries a non-escaping, non-`Sendable` block and result across threads, which is safe
/// only because the submitting thread does nothing else until the job is done.
final class SyncJob<T>: @unchecked Sendable {
    // @unchecked: `body` and `outcome` are read and written only while `condition` is locked.
    // The submitting thread stores `body` before queueing the job and then blocks in
    // `wait()`; the pool thread takes `body` out (dropping the job's reference), runs it and
    // stores `outcome`, which `wait()` reads after being signalled. So at any moment only one
    // thread uses the block, its captures and the result.
    private let condition = NSCondition()
    private var body: ((Connection) throws -> T)?
    private var outcome: Result<T, any Error>?

    /// A job for `body`, which must stay valid until `wait()` returns.
    init(_ body: @escaping (Connection) throws -> T) {
        self.body = body
    }

    /// Runs the block through `work` on the calling pool thread and wakes the submitting thread.
    func run(_ work: ((Connection) throws -> T) throws -> T) {
        finish(with: runBody(work))
    }

    /// Fails the job with `error` without running its block.
    func fail(_ error: any Error) {
        condition.lock()
        body = nil
        condition.unlock()
        finish(with: .failure(error))
    }

    /// Blocks until the job has run or failed; returns the block's value or throws its error.
    func wait() throws -> T {
        condition.lock()
        while true {
            if let outcome {
                condition.unlock()
                return try outcome.get()
            }
            condition.wait()
        }
    }

    /// Takes the block out of the job and runs it; every reference to the block is gone when
    /// this returns, before the submitting thread is woken (as `withoutActuallyEscaping` requires).
    private func runBody(_ work: ((Connection) throws -> T) throws -> T) -> Result<T, any Error> {
        condition.lock()
        let body = self.body.take()
        condition.unlock()
        guard let body else { preconditionFailure("a synchronous job runs once") }
        return Result { try work(body) }
    }

    private func finish(with result: Result<T, any Error>) {
        condition.lock()
        outcome = result
        condition.signal()
        condition.unlock()
    }
}
