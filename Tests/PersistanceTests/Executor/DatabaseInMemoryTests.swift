import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseInMemoryTests {
    @Test func oneConnectionRunsReadsAndWrites() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        #expect(db.maximumReaderCount == 0)
        #expect(db.readers == nil)
        try await db.write { conn in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)")
            try conn.execute("INSERT INTO t(value) VALUES (1)")
        }
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        await #expect { try await db.read { conn in try conn.execute("INSERT INTO t(value) VALUES (2)") } } throws: {
            isDatabaseError($0, code: .readOnly)
        }
        // The read left the connection writable.
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (3)") }
        let values = try await onThread { try db.readSync { conn in try conn.fetchAll(Int.self, "SELECT value FROM t") } }
        #expect(values == [1, 3])
        try await closeWithinTimeout(db)
    }

    @Test func eachOpenIsAPrivateDatabase() async throws {
        let first = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        let second = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        #expect(first !== second)
        try await first.write { conn in try conn.execute("CREATE TABLE t(value)") }
        #expect(try await second.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") } == 0)
        try await closeWithinTimeout(first)
        try await closeWithinTimeout(second)
    }

    @Test func concurrentWorkIsSerialised() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { conn in try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER)") }
        try await withTimeout {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for index in 0..<100 {
                            try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [writer * 100 + index]) }
                            _ = try await db.read { conn in try rowCount(conn) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(try await db.read { conn in try rowCount(conn) } == 400)
        try await closeWithinTimeout(db)
    }
}
