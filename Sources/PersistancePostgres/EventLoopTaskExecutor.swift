#if PostgreSQL
import PostgresNIO

/// Runs the jobs of the tasks that prefer it on one connection's NIO event loop, where
/// postgres-nio writes the connection's messages and completes its statements.
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
