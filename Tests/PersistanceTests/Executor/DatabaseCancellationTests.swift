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

    /// A block cancelled while its long statement runs, or just before it starts (when the
    /// interrupt finds nothing to stop), is stopped and commits nothing; the connection then
    /// serves later work as usual.
    @Test(arguments: [Access.read, .write], [false, true])
    func cancellingRunningBlockStopsIt(_ access: Access, cancelledBetweenStatements: Bool) async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let cancelled = Gate()
        let block: @Sendable (Connection) throws -> Int? = { conn in
            if access == .write {
                try conn.execute("INSERT INTO t(value) VALUES (1)")
            }
            started.open()
            if cancelledBetweenStatements {
                try cancelled.wait()
            }
            return try conn.fetchOne(Int.self, Self.longQuery)
        }
        let task = Task { access == .read ? try await db.read(block) : try await db.write(block) }
        try await started.opened()
        task.cancel()
        cancelled.open()
        await expectCancelled(task)
        #expect(try await db.read { conn in try rowCount(conn) } == 0, "a cancelled write is rolled back")
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (2)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    /// The cancellation check stays with the cancelled job: on the same connection, the
    /// next blocks' statements (the first one synchronous), long enough to meet SQLite's
    /// progress handler many times, run to the end.
    @Test func blocksAfterACancelledOneRunTheirStatementsToTheEnd() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 1)
        let started = Gate()
        let task = Task {
            try await db.read { conn in
                started.open()
                return try conn.fetchOne(Int.self, Self.longQuery)
            }
        }
        try await started.opened()
        task.cancel()
        await expectCancelled(task)
        let count = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT count(*) FROM c"
        let counted = try await onThread { try db.readSync { conn in try conn.fetchOne(Int.self, count) } }
        #expect(counted == 100_000)
        #expect(try await db.read { conn in try conn.fetchOne(Int.self, count) } == 100_000)
        try await closeWithinTimeout(db)
    }

    @Test func writeCancelledAfterItsLastStatementIsRolledBack() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let started = Gate()
        let cancelled = Gate()
        let write = Task {
            try await db.write { conn in
                try conn.execute("INSERT INTO t(value) VALUES (1)")
                started.open()
                // Cancelled once no statement is left to interrupt: the commit is what it stops.
                try cancelled.wait()
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
