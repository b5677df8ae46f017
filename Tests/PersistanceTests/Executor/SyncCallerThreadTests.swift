import Foundation
import Testing

@testable import Persistance

/// A synchronous write whose writer is idle runs its block on the calling thread, as
/// `DispatchQueue.sync` does (`ConnectionPool.runOnCallingThread`); a busy writer queues it
/// behind earlier work, in order. Either way the executor's guarantees hold: one writer at a
/// time, reentrant calls refused, the connection confined to the thread holding it, closing
/// waiting for the running block.
@Suite(.timeLimit(.minutes(3))) struct SyncCallerThreadTests {
    /// The calling thread, and the thread a block ran on.
    private struct Threads: Sendable {
        let caller: pthread_t
        let block: pthread_t
        var areSame: Bool { pthread_equal(caller, block) != 0 }
    }

    /// Carries the connection a block lent out of it, to test that it stays confined.
    private final class EscapedConnection: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }

    @Test(arguments: ["test.sqlite", ":memory:"])
    func syncWriteRunsOnTheCallingThreadWhenTheWriterIsIdle(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, name)
        let threads = try await onThread {
            let caller = pthread_self()
            let block = try db.writeSync { conn in
                try conn.execute("INSERT INTO t(value) VALUES (1)")
                return pthread_self()
            }
            return Threads(caller: caller, block: block)
        }
        #expect(threads.areSame)
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    /// Lent to the calling thread for the block only: used afterwards, even from that same
    /// thread, the connection has escaped; the writer's own thread uses it again.
    @Test func theLentConnectionIsConfinedToTheBlock() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let (insideUse, laterUse) = try await onThread {
            var insideUse: Result<Void, any Error> = .success(())
            let escaped = try db.writeSync { conn in
                insideUse = Result { try conn.execute("INSERT INTO t(value) VALUES (1)") }
                return EscapedConnection(conn)
            }
            return (insideUse, Result { try escaped.connection.execute("INSERT INTO t(value) VALUES (2)") })
        }
        #expect(throws: Never.self) { try insideUse.get() }
        expectFailure(laterUse, .connectionEscaped)
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (3)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 2)
        try await closeWithinTimeout(db)
    }

    /// A sync write that finds the writer busy waits in the queue: it runs on the writer's
    /// thread after the running write, and before a write submitted after it.
    @Test func syncWriteQueuesBehindABusyWriterInOrder() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let order = Guarded<[String]>([])
        let release = Gate()
        let running = Gate()
        let held = Task {
            try await db.write { _ in
                running.open()
                try release.wait()
                order.withLock { $0.append("held") }
            }
        }
        try await running.opened()
        let syncWrite = Task {
            try await onThread {
                let caller = pthread_self()
                let block = try db.writeSync { _ in
                    order.withLock { $0.append("sync") }
                    return pthread_self()
                }
                return Threads(caller: caller, block: block)
            }
        }
        try await eventually("the sync write queued") { db.writer.queuedCount == 1 }
        let later = Task { try await db.write { _ in order.withLock { $0.append("later") } } }
        try await eventually("the later write queued") { db.writer.queuedCount == 2 }
        release.open()
        try await held.value
        let threads = try await syncWrite.value
        try await later.value
        #expect(!threads.areSame)
        #expect(order.withLock { $0 } == ["held", "sync", "later"])
        try await closeWithinTimeout(db)
    }

    /// Work submitted while a caller-thread write runs waits for it, then runs in order.
    @Test func workSubmittedDuringACallerThreadWriteRunsAfterIt() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let order = Guarded<[String]>([])
        let release = Gate()
        let running = Gate()
        let lent = Task {
            try await onThread {
                let caller = pthread_self()
                let block = try db.writeSync { _ in
                    running.open()
                    try release.wait()
                    order.withLock { $0.append("lent") }
                    return pthread_self()
                }
                return Threads(caller: caller, block: block)
            }
        }
        try await running.opened()
        let asyncWrite = Task { try await db.write { _ in order.withLock { $0.append("async") } } }
        try await eventually("the async write queued") { db.writer.queuedCount == 1 }
        let syncWrite = Task { try await onThread { try db.writeSync { _ in order.withLock { $0.append("sync") } } } }
        try await eventually("the sync write queued") { db.writer.queuedCount == 2 }
        release.open()
        #expect(try await lent.value.areSame)
        try await asyncWrite.value
        try await syncWrite.value
        #expect(order.withLock { $0 } == ["lent", "async", "sync"])
        try await closeWithinTimeout(db)
    }

    /// Inside a block running on the calling thread, that thread counts as the database's:
    /// a synchronous call that would wait for the database is refused, as on the writer's thread.
    @Test func reentrantCallsInsideACallerThreadWriteAreRefused() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let (threads, outcomes) = try await onThread {
            let caller = pthread_self()
            var outcomes: [Result<Void, any Error>] = []
            let block = try db.writeSync { conn in
                outcomes.append(Result { try db.writeSync { _ in } })
                outcomes.append(Result { _ = try db.readSync { conn in try rowCount(conn) } })
                outcomes.append(Result { try db.closeSync() })
                try conn.execute("INSERT INTO t(value) VALUES (1)")
                return pthread_self()
            }
            return (Threads(caller: caller, block: block), outcomes)
        }
        #expect(threads.areSame)
        #expect(outcomes.count == 3)
        for outcome in outcomes {
            expectFailure(outcome, .reentrantAccess)
        }
        #expect(!db.isClosed)
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    /// Closing while a block runs on the calling thread waits for it: the block commits,
    /// later work fails with `databaseClosed`, and the close returns once the block has.
    @Test(arguments: [false, true])
    func closeWaitsForACallerThreadWrite(gracefully: Bool) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        let db = try await openTestDatabase(directory)
        let release = Gate()
        let running = Gate()
        let lent = Task {
            try await onThread {
                let caller = pthread_self()
                let block = try db.writeSync { conn in
                    running.open()
                    try release.wait()
                    try conn.execute("INSERT INTO t(value) VALUES (1)")
                    return pthread_self()
                }
                return Threads(caller: caller, block: block)
            }
        }
        try await running.opened()
        let closed = Gate()
        let close = Task {
            try await withTimeout {
                if gracefully { try await db.closeGracefully() } else { try await db.close() }
            }
            closed.open()
        }
        try await eventually("the database closing") { db.isClosed }
        let lateWrite = try await onThread { Result { try db.writeSync { _ in } } }
        expectFailure(lateWrite, .databaseClosed)
        #expect(!closed.isOpened)
        release.open()
        #expect(try await lent.value.areSame)
        try await close.value
        let reopened = try await Database.open(configuration: testConfiguration(path))
        #expect(try await reopened.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(reopened)
    }
}
