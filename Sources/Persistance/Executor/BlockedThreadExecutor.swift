/// A task executor whose jobs run on the one thread that waits for them: a thread that must
/// block until an asynchronous body ends (``SQLiteTransaction/runBlocking(_:on:of:)``) runs
/// that body itself, instead of waiting for a thread of the cooperative pool, which tasks
/// blocked elsewhere in the process may all hold.
final class BlockedThreadExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var isFinished = false
    }

    private let state = Guarded(State())

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock(waking: .all) { $0.jobs.append(job) }
    }

    /// Runs the jobs enqueued, on the calling thread, until ``finish()`` and no job is left.
    func run() {
        while let job = state.wait(
            until: { !$0.jobs.isEmpty || $0.isFinished },
            then: { $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() })
        {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Lets ``run()`` return once it has run the jobs already enqueued.
    func finish() {
        state.withLock(waking: .all) { $0.isFinished = true }
    }
}
