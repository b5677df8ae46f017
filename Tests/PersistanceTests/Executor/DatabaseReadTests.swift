import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseReadTests {
    @Test func readsRunConcurrently() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 2)
        let first = Gate()
        let second = Gate()
        // Each read opens its own gate, then waits for the other's: both finish only if they overlap.
        try await withTimeout {
            async let a: Int = db.read { conn in
                first.open()
                try second.wait()
                return try rowCount(conn)
            }
            async let b: Int = db.read { conn in
                second.open()
                try first.wait()
                return try rowCount(conn)
            }
            let counts = try await [a, b]
            #expect(counts == [0, 0])
        }
        try await closeWithinTimeout(db)
    }

    @Test func syncReadsRunConcurrently() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 2)
        let first = Gate()
        let second = Gate()
        async let a: Void = onThread { try db.readSync { _ in first.open(); try second.wait() } }
        async let b: Void = onThread { try db.readSync { _ in second.open(); try first.wait() } }
        _ = try await (a, b)
        try await closeWithinTimeout(db)
    }

    @Test func longReadDoesNotBlockWriteAndKeepsItsSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let readStarted = Gate()
        let writeDone = Gate()
        let longRead = Task {
            try await db.read { conn in
                let before = try rowCount(conn)
                readStarted.open()
                try writeDone.wait()
                return (before, try rowCount(conn))
            }
        }
        try await readStarted.opened()
        // The write commits while the read is still open.
        try await withTimeout {
            try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        }
        let readAfterCommit = try await db.read { conn in try rowCount(conn) }
        writeDone.open()
        let (before, after) = try await withTimeout { try await longRead.value }
        #expect(before == 0)
        #expect(after == 0, "a read keeps the snapshot it started with")
        #expect(readAfterCommit == 1, "a read started after the commit sees it")
        try await closeWithinTimeout(db)
    }

    @Test func manyReadersStarveNeitherTheWriterNorEachOther() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 2)
        let writes = 200
        try await withTimeout(120) {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for value in 0..<writes {
                        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [value]) }
                    }
                    return true
                }
                for _ in 0..<100 {
                    group.addTask {
                        var last = 0
                        for _ in 0..<20 {
                            let count = try await db.read { conn in try rowCount(conn) }
                            guard count >= last else { return false }
                            last = count
                        }
                        return true
                    }
                }
                for try await countsNeverWentBack in group {
                    #expect(countsNeverWentBack)
                }
            }
        }
        #expect(try await db.read { conn in try rowCount(conn) } == writes)
        #expect(db.readers?.threadCount ?? 0 <= 2)
        try await closeWithinTimeout(db)
    }

    @Test func readRefusesToWrite() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        await #expect {
            try await db.read { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        } throws: { isDatabaseError($0, code: .readOnly) }
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await closeWithinTimeout(db)
    }

    /// SQLite 3.15 answered `PRAGMA table_info` from a reader's cached schema: a table another
    /// connection created after the reader loaded its schema had no columns, until some
    /// statement happened to check the schema cookie. The read's snapshot statement checks it.
    @Test func aReadSeesTheSchemaAsOfItsSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 1)
        #expect(try await db.read { conn in try conn.fetchAll("PRAGMA table_info(t)").count } == 2)
        try await db.write { conn in try conn.execute("CREATE TABLE later(a, b, c)") }
        #expect(try await db.read { conn in try conn.fetchAll("PRAGMA table_info(later)").count } == 3)
        try await db.write { conn in try conn.execute("ALTER TABLE later ADD COLUMN d") }
        #expect(try await db.read { conn in try conn.fetchAll("PRAGMA table_info(later)").count } == 4)
        try await closeWithinTimeout(db)
    }

    @Test func readerThatCannotOpenFailsTheRead() async throws {
        struct ReaderRefused: Error {}
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("test.sqlite"))
        configuration.connectionOptions.prepare = { conn in
            if conn.options.mode == .readOnly { throw ReaderRefused() }
        }
        let db = try await Database.open(configuration: configuration, readerCount: 2)
        try await db.write { conn in try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)") }
        for _ in 0..<2 {
            await #expect(throws: ReaderRefused.self) { try await withTimeout { try await db.read { conn in try rowCount(conn) } } }
        }
        #expect(db.readers?.threadCount == 0)
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        try await closeWithinTimeout(db)
    }
}
