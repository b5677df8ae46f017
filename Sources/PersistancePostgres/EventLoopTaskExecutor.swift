#if PostgreSQL
import PostgresNIO

/// Runs the jobs of the tasks that prefer it on one connection's NIO event loop.
///
/// A task that runs a statement there sends it from the loop and is resumed on the loop when
/// postgres-nio completes it (each row batch of a long result included), instead of hopping to
/// the global executor and back for every message: only the statement's caller is resumed
/// elsewhere, once, as a caller of postgres-nio is.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        loop.execute { unownedJob.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
#endif
