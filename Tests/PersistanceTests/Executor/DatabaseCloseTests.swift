import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseCloseTests {
    @Test func closeWaitsForRunningWorkAndFailsQueuedWork() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 1)
        let writeStarted = Gate()
        let readStarted = Gate()
        let release = Gate()
        let runningWrite = Task {
            try await db.write { conn in
                try conn.execute("INSERT INTO t(value) VALUES (1)")
                writeStarted.open()
                try release.wait()
            }
        }
        let runningRead = Task {
            try await db.read { conn in
                readStarted.open()
                try release.wait()
                return try rowCount(conn)
            }
        }
        try await writeStarted.opened()
        try await readStarted.opened()
        let queuedWrite = Task { try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (2)") } }
        let queuedRead = Task { try await db.read { conn in try rowCount(conn) } }
        try await eventually("work queued") { db.writer.queuedCount == 1 && db.readers?.queuedCount == 1 }

        let closed = Gate()
        let closing = Task {
            try await closeWithinTimeout(db)
            closed.open()
        }
        // Queued work fails at once, while the running work still holds its connections.
        await #expect { try await withTimeout { try await queuedWrite.value } } throws: { isDatabaseError($0, .databaseClosed) }
        await #expect { try await withTimeout { try await queuedRead.value } } throws: { isDatabaseError($0, .databaseClosed) }
        #expect(db.isClosed)
        await #expect { try await db.write { _ in } } throws: { isDatabaseError($0, .databaseClosed) }
        #expect { try db.readSync { _ in } } throws: { isDatabaseError($0, .databaseClosed) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!closed.isOpened, "close waits for running work")

        release.open()
        try await withTimeout { try await runningWrite.value }
        #expect(try await withTimeout { try await runningRead.value } == 0)
        try await withTimeout { try await closing.value }

        let reopened = try await Database.open(configuration: testConfiguration(directory.path("test.sqlite")))
        #expect(reopened !== db, "closing removed the registry entry")
        #expect(try await reopened.read { conn in try rowCount(conn) } == 1, "the running write committed")
        try await closeWithinTimeout(reopened)
    }

    @Test func closeClosesEveryConnection() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        let db = try await openTestDatabase(directory)
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try await closeWithinTimeout(db)
        // The writer closed last: as the file's last connection it checkpointed and removed the WAL.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(db.writer.threadCount == 0)
        #expect(db.readers?.threadCount == 0)
        // Closing again does nothing more.
        try await closeWithinTimeout(db)
        try await onThread { try db.closeSync() }
    }

    @Test func syncCloseOfInMemoryDatabase() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { conn in try conn.execute("CREATE TABLE t(value)") }
        try await onThread { try db.closeSync() }
        #expect(db.writer.threadCount == 0)
        #expect { try db.writeSync { _ in } } throws: { isDatabaseError($0, .databaseClosed) }
    }

    @Test func droppingTheLastReferenceClosesTheDatabase() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        do {
            let db = try await openTestDatabase(directory)
            try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
            #expect(try await db.read { conn in try rowCount(conn) } == 1)
        }
        #expect(DatabaseRegistry.shared.database(atPath: path) == nil)
        try await eventually("connections closed") { !FileManager.default.fileExists(atPath: path + "-wal") }
    }
}
