import Foundation
import Testing

@testable import Persistance

/// A write transaction whose file was deleted or replaced while the database was open fails
/// with `databaseFileMoved` and rolls back: nothing is acknowledged into a file nobody will
/// open again, and the file that now has the path is left alone.
@Suite(.timeLimit(.minutes(3))) struct DatabaseFileMovedTests {
    private func insert(_ db: Database, _ value: Int) async -> Result<Void, any Error> {
        do {
            return .success(try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [value]) })
        } catch {
            return .failure(error)
        }
    }

    /// Puts another database, whose table `t` holds 100, 200, … 500, at `path`.
    private func replaceWithFiveRows(_ path: String, _ directory: TemporaryDirectory) throws {
        let replacementPath = directory.path("replacement.sqlite")
        let replacement = try testConfiguration(replacementPath).openWriter()
        try replacement.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)")
        for value in 1...5 {
            try replacement.execute("INSERT INTO t(value) VALUES (?)", [value * 100])
        }
        try replacement.close()
        #expect(rename(replacementPath, path) == 0)
    }

    @Test func writeToADeletedFileThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        try await insert(db, 1).get()
        // A reader is open before the file goes (one that would open later cannot).
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try FileManager.default.removeItem(atPath: directory.path("test.sqlite"))
        expectFailure(await insert(db, 2), .databaseFileMoved)
        expectFailure(await insert(db, 3), .databaseFileMoved, "every later write fails too")
        // The failed writes rolled back: the open file holds the one acknowledged row.
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    @Test func writeToAReplacedFileThrowsAndLeavesTheNewFileAlone() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        let db = try await openTestDatabase(directory)
        try await insert(db, 1).get()
        try replaceWithFiveRows(path, directory)
        expectFailure(await insert(db, 2), .databaseFileMoved)
        try await closeWithinTimeout(db)
        let reopened = try testConfiguration(path).openWriter()
        defer { try? reopened.close() }
        #expect(try reopened.fetchAll(String.self, "PRAGMA integrity_check") == ["ok"])
        // The old writer's log was emptied into the old file at close, so nothing of it is
        // replayed over the replacement.
        #expect(try reopened.fetchAll(Int.self, "SELECT value FROM t ORDER BY id") == [100, 200, 300, 400, 500])
    }

    @Test func aReaderOpenedAfterTheFileWasReplacedFailsAndLeavesTheNewFileAlone() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        let db = try await openTestDatabase(directory, readerCount: 2)
        try await insert(db, 1).get()
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try replaceWithFiveRows(path, directory)
        // The open reader is held, so the next read needs a second reader, which opens now.
        let release = Gate()
        let running = Gate()
        let held = Task { try await db.read { _ in running.open(); try release.wait() } }
        try await running.opened()
        let secondRead = Task { try await db.read { conn in try rowCount(conn) } }
        let readers = try #require(db.readers)
        // The second reader does not open the replacement: its thread ends, the read waits.
        try await eventually("the second reader refused the replacement") {
            readers.queuedCount == 1 && readers.threadCount == 1
        }
        release.open()
        try await held.value
        #expect(try await secondRead.value == 1, "the read ran on the reader of the original file")
        try await closeWithinTimeout(db)
        let reopened = try testConfiguration(path).openWriter()
        defer { try? reopened.close() }
        #expect(try reopened.fetchAll(Int.self, "SELECT value FROM t ORDER BY id") == [100, 200, 300, 400, 500])
    }

    @Test func aFileRenamedWhileOpenKeepsItsAcknowledgedRows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        try await insert(db, 1).get()
        try await insert(db, 2).get()
        let renamedPath = directory.path("renamed.sqlite")
        #expect(rename(directory.path("test.sqlite"), renamedPath) == 0)
        expectFailure(await insert(db, 3), .databaseFileMoved)
        try await closeWithinTimeout(db)
        // The acknowledged rows were in the write-ahead log at the old path; the close moved
        // them into the file, which is all a later open of its new path reads.
        let reopened = try testConfiguration(renamedPath).openWriter()
        defer { try? reopened.close() }
        #expect(try reopened.fetchAll(Int.self, "SELECT value FROM t ORDER BY id") == [1, 2])
        let staleLogSize = (try? FileManager.default.attributesOfItem(atPath: directory.path("test.sqlite-wal"))[.size] as? Int) ?? 0
        #expect(staleLogSize == 0, "no log with frames is left at the old path")
    }

    @Test func writesToAFileStillInPlaceSucceed() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        // A rename away and back leaves the same file at the path.
        try FileManager.default.moveItem(atPath: directory.path("test.sqlite"), toPath: directory.path("moved.sqlite"))
        try FileManager.default.moveItem(atPath: directory.path("moved.sqlite"), toPath: directory.path("test.sqlite"))
        try await insert(db, 1).get()
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }
}
