import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseWriteTests {
    @Test func concurrentWritersLoseNoWrite() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        try await withTimeout(120) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for index in 0..<1_000 {
                            try await db.write { conn in
                                try conn.execute("INSERT INTO t(value) VALUES (?)", [writer * 1_000 + index])
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let (count, distinct) = try await db.read { conn in
            (try rowCount(conn), try conn.fetchOne(Int.self, "SELECT count(DISTINCT value) FROM t"))
        }
        #expect(count == 8_000)
        #expect(distinct == 8_000)
        try await closeWithinTimeout(db)
    }

    @Test func writesRunInSubmissionOrder() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let release = Gate()
        let blocker = try await holdWriter(db, until: release)
        var writes = [Task<Void, any Error>]()
        for value in 0..<20 {
            writes.append(Task { try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [value]) } })
            // Submit the next write only once this one is queued behind the blocker.
            try await eventually("write \(value) queued") { db.writer.queuedCount == value + 1 }
        }
        release.open()
        let submitted = writes
        try await withTimeout {
            try await blocker.value
            for write in submitted { try await write.value }
        }
        let values = try await db.read { conn in try conn.fetchAll(Int.self, "SELECT value FROM t ORDER BY id") }
        #expect(values == Array(0..<20))
        try await closeWithinTimeout(db)
    }

    @Test func writeCommitsOnReturnAndRollsBackOnThrow() async throws {
        struct Refused: Error {}
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let id = try await db.write { conn in
            try conn.execute("INSERT INTO t(value) VALUES (1)")
            return conn.lastInsertRowID
        }
        #expect(id == 1)
        await #expect(throws: Refused.self) {
            try await db.write { conn in
                try conn.execute("INSERT INTO t(value) VALUES (2)")
                throw Refused()
            }
        }
        #expect(throws: Refused.self) {
            try db.writeSync { conn in
                try conn.execute("INSERT INTO t(value) VALUES (3)")
                throw Refused()
            }
        }
        #expect(try await db.read { conn in try conn.fetchAll(Int.self, "SELECT value FROM t") } == [1])
        try await closeWithinTimeout(db)
    }

    @Test func syncCallsReturnTheBlockValue() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let values = try await onThread {
            // A non-Sendable local, captured and mutated: allowed, because the call blocks.
            var inserted = [Int64]()
            try db.writeSync { conn in
                for value in 1...3 {
                    try conn.execute("INSERT INTO t(value) VALUES (?)", [value])
                    inserted.append(conn.lastInsertRowID)
                }
            }
            let sum = try db.readSync { conn in try conn.fetchOne(Int.self, "SELECT sum(value) FROM t") }
            return (inserted, sum)
        }
        #expect(values.0 == [1, 2, 3])
        #expect(values.1 == 6)
        try await closeWithinTimeout(db)
    }
}
