import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseCancellationTests {
    /// A query that runs for minutes unless interrupted.
    static let longQuery = """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
        SELECT count(*) FROM c
        """

    @Test func queuedWorkOfCancelledTaskDoesNotStart() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let release = Gate()
        let blocker = try await holdWriter(db, until: release)
        let started = Gate()
        let queued = Task {
            try await db.write { conn in
                started.open()
                try conn.execute("INSERT INTO t(value) VALUES (1)")
            }
        }
        try await eventually("write queued") { db.writer.queuedCount == 1 }
        queued.cancel()
        // It fails at once, while the blocker still holds the writer.
        await expectCancelled(queued)
        release.open()
        try await withTimeout { try await blocker.value }
        #expect(!started.isOpened)
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await closeWithinTimeout(db)
    }

    @Test func alreadyCancelledTaskDoesNotSubmit() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await db.write { _ in started.open() }
        }
        await expectCancelled(task)
        #expect(!started.isOpened)
        try await closeWithinTimeout(db)
    }

    @Test func cancellingLongReadInterruptsIt() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let read = Task {
            try await db.read { conn in
                started.open()
                return try conn.fetchOne(Int.self, Self.longQuery)
            }
        }
        try await started.opened()
        read.cancel()
        await expectCancelled(read)
        // The interrupted reader connection serves later reads.
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await closeWithinTimeout(db)
    }

    @Test func readCancelledBetweenStatementsStopsItsNextStatement() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let cancelled = Gate()
        let read = Task {
            try await db.read { conn in
                started.open()
                // No statement runs while the task is cancelled: the interrupt finds nothing to stop.
                try cancelled.wait()
                return try conn.fetchOne(Int.self, Self.longQuery)
            }
        }
        try await started.opened()
        read.cancel()
        cancelled.open()
        await expectCancelled(read)
        try await closeWithinTimeout(db)
    }

    @Test func cancellingLongWriteInterruptsAndRollsItBack() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let write = Task {
            try await db.write { conn in
                try conn.execute("INSERT INTO t(value) VALUES (1)")
                started.open()
                return try conn.fetchOne(Int.self, Self.longQuery)
            }
        }
        try await started.opened()
        write.cancel()
        await expectCancelled(write)
        #expect(try await db.read { conn in try rowCount(conn) } == 0, "the cancelled write was rolled back")
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (2)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 1, "the interrupt did not reach the next write")
        try await closeWithinTimeout(db)
    }

    @Test func writeCancelledBetweenStatementsIsRolledBack() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let cancelled = Gate()
        let write = Task {
            try await db.write { conn in
                try conn.execute("INSERT INTO t(value) VALUES (1)")
                started.open()
                // No statement runs while the task is cancelled: the interrupt finds nothing to stop.
                try cancelled.wait()
                try conn.execute("INSERT INTO t(value) VALUES (2)")
            }
        }
        try await started.opened()
        write.cancel()
        cancelled.open()
        await expectCancelled(write)
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await closeWithinTimeout(db)
    }
}
