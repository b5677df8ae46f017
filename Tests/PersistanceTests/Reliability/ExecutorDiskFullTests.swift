import Foundation
import Testing

@testable import Persistance

/// The same faults met through the executor: a failed write rolls back, earlier data
/// stays, and the database keeps serving reads and writes.
@Suite(.timeLimit(.minutes(1))) struct ExecutorDiskFullTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test func fullDatabaseFailsOneWriteAndKeepsWorking() async throws {
        let db = try await openTestDatabase(directory)
        try await db.write { conn in
            for id in 1...50 {
                try conn.execute("INSERT INTO t(id, value) VALUES (?, ?)", [id, id])
            }
            let pages = try #require(try conn.fetchOne(Int.self, "PRAGMA page_count"))
            try conn.execute("PRAGMA max_page_count = \(pages + 4)")
        }
        let large = Data(repeating: 0xAB, count: 3_000)
        await #expect {
            try await db.write { conn in
                try conn.execute("ALTER TABLE t ADD COLUMN payload BLOB")
                for id in 1000..<1200 {
                    try conn.execute("INSERT INTO t(id, value, payload) VALUES (?, ?, ?)", [id, id, large])
                }
            }
        } throws: { isDatabaseError($0, code: .full) }
        // Rolled back, schema change included; readers and the writer still work.
        #expect(try await db.read(rowCount) == 50)
        #expect(try await db.read { conn in try conn.fetchAll("PRAGMA table_info(t)").count } == 2)
        try await db.write { conn in
            try conn.execute("DELETE FROM t WHERE id > 40")
            try conn.execute("INSERT INTO t(id, value) VALUES (99, 99)")
        }
        #expect(try await db.read(rowCount) == 41)
        #expect(try await db.read { conn in try conn.fetchOne(String.self, "PRAGMA integrity_check") } == "ok")
        try await closeWithinTimeout(db)
    }

    @Test func unwritableFileServesReadsAndRefusesWrites() async throws {
        let path = directory.path("readonly.sqlite")
        let db = try await openTestDatabase(directory, "readonly.sqlite")
        try await db.write { conn in try conn.execute("INSERT INTO t(id, value) VALUES (1, 1)") }
        try await closeWithinTimeout(db)
        let before = try fileBytes(path)
        try await withUnwritable(path) {
            // SQLite opens a file it cannot write read-only: reads work, writes fail, typed.
            let db = try await Database.open(configuration: testConfiguration(path))
            #expect(try await db.read(rowCount) == 1)
            await #expect {
                try await db.write { conn in try conn.execute("INSERT INTO t(id, value) VALUES (2, 2)") }
            } throws: { isDatabaseError($0, code: .readOnly) }
            #expect(try await db.read(rowCount) == 1)
            try await closeWithinTimeout(db)
        }
        #expect(try fileBytes(path) == before)
    }

    @Test func unwritableDirectoryFailsToOpenAndLeavesTheFileUnchanged() async throws {
        let folder = directory.path("locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/db.sqlite"
        let db = try await Database.open(configuration: testConfiguration(path))
        try await db.write { conn in try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)") }
        try await closeWithinTimeout(db)
        let before = try fileBytes(path)
        try await withUnwritable(folder) {
            // WAL needs its -wal and -shm files beside the database: opening cannot create them.
            await #expect { try await Database.open(configuration: testConfiguration(path)) } throws: {
                $0 is DatabaseError
            }
            await #expect { try await Database.open(configuration: testConfiguration(folder + "/new.sqlite")) } throws: {
                isDatabaseError($0, code: .cantOpen)
            }
        }
        #expect(try fileBytes(path) == before)
    }
}
