import Foundation
import Testing

@testable import Persistance

/// The first reader connection opens right after the writer, on its own thread, so the
/// first read after `open` does not open (and, with SQLCipher, key) a connection itself.
@Suite(.timeLimit(.minutes(3))) struct DatabaseFirstReaderTests {
    /// A database in `directory` allowing 4 readers, and the number of reader connections opened so far.
    private func openCountingReaders(in directory: TemporaryDirectory) async throws -> (Database, Guarded<Int>) {
        let opened = Guarded(0)
        var configuration = testConfiguration(directory.path("test.sqlite"))
        let prepare = configuration.connectionOptions.prepare
        configuration.connectionOptions.prepare = { conn in
            try prepare?(conn)
            if conn.options.mode == .readOnly { opened.withLock { $0 += 1 } }
        }
        return (try await Database.open(configuration: configuration, readerCount: 4), opened)
    }

    @Test func firstReaderOpensWithTheWriterAndServesTheFirstRead() async throws {
        let directory = try TemporaryDirectory()
        let (db, opened) = try await openCountingReaders(in: directory)
        try await eventually("the first reader opened") { opened.withLock { $0 } == 1 }
        #expect(db.readers?.threadCount == 1)
        // Reads one after another all run on that reader: no other opens.
        for _ in 0..<5 {
            _ = try await db.read { conn in try conn.fetchOne(Int.self, "SELECT 1") }
        }
        #expect(opened.withLock { $0 } == 1)
        #expect(db.readers?.threadCount == 1)
        try await closeWithinTimeout(db)
    }

    /// A reader thread counts itself idle before it wakes the caller of the read it ran, so
    /// the caller's next read, however soon, never opens a second reader.
    @Test func readsOneAfterAnotherNeverOpenAnotherReader() async throws {
        let directory = try TemporaryDirectory()
        let (db, opened) = try await openCountingReaders(in: directory)
        for _ in 0..<500 {
            _ = try db.readSync { conn in try conn.fetchOne(Int.self, "SELECT 1") }
        }
        for _ in 0..<500 {
            _ = try await db.read { conn in try conn.fetchOne(Int.self, "SELECT 1") }
        }
        #expect(opened.withLock { $0 } == 1)
        #expect(db.readers?.threadCount == 1)
        try await closeWithinTimeout(db)
    }

    /// A database closed right after opening ends its first reader too, before `close` returns.
    @Test func closingRightAfterOpenWaitsForTheFirstReader() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Database.open(configuration: testConfiguration(directory.path("test.sqlite")))
        try await closeWithinTimeout(db)
        #expect(db.readers?.threadCount == 0)
        #expect(db.writer.threadCount == 0)
    }
}
