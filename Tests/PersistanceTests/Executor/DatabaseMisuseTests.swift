import Foundation
import Testing

@testable import Persistance

/// Misuse is reported with a typed error, never a deadlock: each call that would wait for
/// itself runs on its own thread under a timeout guard.
@Suite struct DatabaseMisuseTests {
    @Test func nestedSyncWriteThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let outcome = try await onThread {
            Result { try db.writeSync { _ in try db.writeSync { _ in } } }
        }
        expectFailure(outcome, .reentrantAccess)
        try await db.close()
    }

    @Test func syncWriteInsideReadThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let outcome = try await onThread {
            Result { try db.readSync { _ in try db.writeSync { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") } } }
        }
        expectFailure(outcome, .reentrantAccess)
        await #expect {
            try await withTimeout {
                try await db.read { _ in try db.writeSync { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") } }
            }
        } throws: { isDatabaseError($0, .reentrantAccess) }
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await db.close()
    }

    @Test func syncReadInsideWriteThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let outcome = try await onThread {
            Result { try db.writeSync { _ in try db.readSync { conn in try rowCount(conn) } } }
        }
        expectFailure(outcome, .reentrantAccess)
        try await db.close()
    }

    @Test func syncCloseInsideBlockThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        await #expect {
            try await withTimeout { try await db.write { _ in try db.closeSync() } }
        } throws: { isDatabaseError($0, .reentrantAccess) }
        #expect(!db.isClosed)
        try await db.close()
    }

    @Test func nestedSyncWriteOnInMemoryDatabaseThrows() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        let outcome = try await onThread {
            Result { try db.readSync { _ in try db.writeSync { _ in } } }
        }
        expectFailure(outcome, .reentrantAccess)
        try await db.close()
    }

    @Test func escapedConnectionThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let escaped = try await onThread {
            let reader = try db.readSync { conn in conn }
            let writer = try db.writeSync { conn in conn }
            let statement = try db.writeSync { conn in try conn.prepare("SELECT count(*) FROM t") }
            return [
                Result { try reader.execute("SELECT 1") },
                Result { try writer.execute("INSERT INTO t(value) VALUES (1)") },
                Result { _ = try writer.sqliteHandle() },
                Result { _ = try statement.step() },
            ] as [Result<Void, any Error>]
        }
        for outcome in escaped {
            expectFailure(outcome, .connectionEscaped)
        }
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await db.close()
    }

    @Test func readerCountBelowOneThrows() throws {
        let directory = try TemporaryDirectory()
        #expect {
            try Database.open(configuration: testConfiguration(directory.path("test.sqlite")), readerCount: 0)
        } throws: { isDatabaseError($0, .misuse) }
    }
}
