import Foundation
import Testing

@testable import Persistance

/// The two ways an awaiting task meets its job's end: watching it (no continuation) or
/// suspended (its continuation attached), and the races between them.
@Suite(.timeLimit(.minutes(2))) struct AsyncJobTests {
    private struct BlockFailed: Error {}

    private static func job(on db: Database, _ body: @escaping @Sendable (Connection) throws -> Void) -> AsyncJob {
        AsyncJob(
            BlockRunner(.read, sharesWriter: false, instrumentation: db.instrumentation, changeTracker: db.changeTracker),
            body)
    }

    /// Submits `count` jobs to `pool` one after another, each as soon as the last has run,
    /// from a thread of its own; returns whether the pool said of any that an awake thread
    /// took it at once.
    private static func anyJobTakenAtOnce(of count: Int, by pool: ConnectionPool) async throws -> Bool {
        try await onThread {
            (0..<count).contains { _ in
                let ran = Gate()
                let startsAtOnce = pool.submit(ClosureJob(run: { _ in ran.open() }, fail: { _ in }))
                while !ran.isOpened { sched_yield() }
                return startsAtOnce
            }
        }
    }

    /// A continuation attached after the job ended (the task stopped watching just before
    /// the end) is resumed at once, and the outcome is the block's.
    @Test(arguments: [false, true])
    func continuationAttachedAfterTheEndIsResumedAtOnce(blockFails: Bool) async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let ran = Gate()
        let job = Self.job(on: db) { _ in
            ran.open()
            if blockFails { throw BlockFailed() }
        }
        try #require(db.readers).submit(job)
        try await eventually("the job ends") { job.isOver }
        try await withTimeout { await withUnsafeContinuation { job.attach($0) } }
        #expect(ran.isOpened)
        #expect((job.outcome() is BlockFailed) == blockFails)
        #expect(blockFails || job.outcome() == nil)
        try await closeWithinTimeout(db)
    }

    /// A job cancelled while queued is over at once with `CancellationError`, resumes a
    /// continuation attached later, and never runs its block when a thread reaches it.
    @Test func jobCancelledWhileQueuedEndsAtOnceAndNeverRuns() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let ran = Gate()
        let job = Self.job(on: db) { _ in ran.open() }
        job.cancel()
        #expect(job.isOver)
        #expect(job.outcome() is CancellationError)
        try await withTimeout { await withUnsafeContinuation { job.attach($0) } }
        try #require(db.readers).submit(job)
        // A read submitted after it runs only once the cancelled job has been dropped.
        _ = try await db.read { _ in }
        #expect(!ran.isOpened)
        try await closeWithinTimeout(db)
    }

    /// A job cancelled before it is submitted (its task was cancelled already) is over at
    /// once with `CancellationError`, so the task does not submit it.
    @Test func jobCancelledBeforeItIsSubmittedIsOverAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let job = Self.job(on: db) { _ in }
        #expect(!job.isOver)
        job.cancel()
        #expect(job.isOver)
        #expect(job.outcome() is CancellationError)
        try await closeWithinTimeout(db)
    }

    /// A job failed by its pool before it runs is over with that failure.
    @Test func jobFailedBeforeItRunsEndsWithTheFailure() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let job = Self.job(on: db) { _ in }
        job.fail(BlockFailed())
        #expect(job.isOver)
        #expect(job.outcome() is BlockFailed)
        try await withTimeout { await withUnsafeContinuation { job.attach($0) } }
        try await closeWithinTimeout(db)
    }

    /// A job cancelled while it runs interrupts its running statement and ends with
    /// `CancellationError`; cancelling or failing it once it is over changes nothing.
    @Test func jobCancelledWhileRunningIsInterruptedAndLaterCallsChangeNothing() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let job = Self.job(on: db) { conn in
            started.open()
            _ = try conn.fetchOne(Int.self, DatabaseCancellationTests.longQuery)
        }
        try #require(db.readers).submit(job)
        try await started.opened()
        #expect(!job.isCancelled)
        job.cancel()
        try await eventually("the interrupted job ends") { job.isOver }
        #expect(job.isCancelled)
        #expect(job.outcome() is CancellationError)
        job.fail(BlockFailed())
        job.cancel()
        #expect(job.outcome() is CancellationError)
        try await closeWithinTimeout(db)
    }

    /// A pool failing a job that has started (it cannot: the job left the queue) or that has
    /// ended changes nothing: the block's outcome stands.
    @Test func failingAStartedOrEndedJobChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let release = Gate()
        let job = Self.job(on: db) { _ in
            started.open()
            try release.wait()
        }
        try #require(db.readers).submit(job)
        try await started.opened()
        job.fail(BlockFailed())
        #expect(!job.isOver)
        release.open()
        try await eventually("the job ends") { job.isOver }
        job.fail(BlockFailed())
        job.cancel()
        #expect(job.outcome() == nil)
        #expect(!job.isCancelled)
        try await closeWithinTimeout(db)
    }

    /// Whatever way the task meets the end (a block shorter than the watch, or one that
    /// outlasts it and resumes a suspended task), it gets the block's value or error.
    @Test(arguments: [0, 20])
    func valueAndErrorReachTheTaskWhetherItWatchedOrSuspended(blockMilliseconds: Int) async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let value = try await db.read { _ in
            Thread.sleep(forTimeInterval: Double(blockMilliseconds) / 1000)
            return blockMilliseconds + 1
        }
        #expect(value == blockMilliseconds + 1)
        await #expect(throws: BlockFailed.self) {
            try await db.write { _ in
                Thread.sleep(forTimeInterval: Double(blockMilliseconds) / 1000)
                throw BlockFailed()
            }
        }
        try await closeWithinTimeout(db)
    }

    /// The pool says whether an awake idle thread takes a job at once: only then does the
    /// task watch it rather than suspend. A thread that has just finished a job watches the
    /// queue for a moment, so a job submitted right after the last one ended is taken at once;
    /// one submitted while the thread is busy is not. (`spinWait` at its one-second maximum
    /// watches whatever the machine's load, which the other tests of this machine vary.)
    @Test func poolSaysWhetherAnAwakeIdleThreadTakesTheJobAtOnce() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(directory.path("test.sqlite"))
        configuration.spinWait = .seconds(1)
        let db = try await Database.open(configuration: configuration)
        let takenAtOnce = try await Self.anyJobTakenAtOnce(of: 200, by: db.writer)
        #expect(takenAtOnce)
        let release = Gate()
        let blocker = try await holdWriter(db, until: release)
        let ran = Gate()
        #expect(!db.writer.submit(ClosureJob(run: { _ in ran.open() }, fail: { _ in })))
        release.open()
        try await withTimeout { try await blocker.value }
        try await ran.opened()
        try await closeWithinTimeout(db)
    }

    /// On a machine with more runnable threads than processors, no idle thread watches the
    /// queue: each sleeps at once, so the pool never says a job was taken at once (and no
    /// caller watches). The same pool on an idle machine does.
    @Test(arguments: [false, true])
    func anOverloadedMachineStopsIdleThreadsWatching(overloaded: Bool) async throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory.path("test.sqlite"))
        let pool = ConnectionPool(
            capacity: 1, opensOnDemand: false, threadName: "load test", executorID: .next(),
            spinWait: .milliseconds(50), load: overloaded ? .overloaded : .idle,
            openConnection: { try configuration.openWriter() })
        let opened = Gate()
        pool.start { _ in opened.open() }
        try await opened.opened()
        let takenAtOnce = try await Self.anyJobTakenAtOnce(of: 50, by: pool)
        #expect(takenAtOnce == !overloaded)
        let stopped = Gate()
        pool.stop { _ in stopped.open() }
        try await stopped.opened()
    }

    /// With `spinWait` zero no idle thread watches the queue, so the pool never says a job
    /// was taken at once (no caller watches either), and every call still gets its value,
    /// synchronous or awaited, read or write.
    @Test func withoutSpinWaitNoThreadWatchesAndCallsStillComplete() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(directory.path("test.sqlite"))
        configuration.spinWait = .zero
        let db = try await Database.open(configuration: configuration)
        try await db.write { conn in try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)") }
        let takenAtOnce = try await Self.anyJobTakenAtOnce(of: 50, by: db.writer)
        #expect(!takenAtOnce)
        for value in 1...20 {
            try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [value]) }
        }
        #expect(try await db.read { conn in try conn.fetchOne(Int.self, "SELECT sum(value) FROM t") } == 210)
        let counted = try await onThread { try db.readSync { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM t") } }
        #expect(counted == 20)
        try await closeWithinTimeout(db)
    }
}
