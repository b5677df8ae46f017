import Foundation
import Testing

@testable import Persistance

/// A full disk (simulated with `PRAGMA max_page_count`) and unwritable files give typed
/// errors, roll back, and leave committed data intact and the database usable.
@Suite struct DiskFullTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test(arguments: ["DELETE", "WAL"])
    func fullDatabaseRollsBackAndRecovers(journalMode: String) throws {
        let path = directory.path("full-\(journalMode).sqlite")
        try makeDatabaseFile(at: path, rows: 50)
        let conn = try Connection(path: path)
        try conn.execute("PRAGMA journal_mode = \(journalMode)")
        let pages = try #require(try conn.fetchOne(Int.self, "PRAGMA page_count"))
        try conn.execute("PRAGMA max_page_count = \(pages + 3)")

        let large = String(repeating: "x", count: 2_000)
        #expect {
            try conn.transaction {
                for id in 1000..<1200 {
                    try conn.execute("INSERT INTO t(id, body) VALUES (?, ?)", [id, large])
                }
            }
        } throws: { isDatabaseError($0, code: .full) }
        #expect(!conn.isInTransaction)
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 50)

        // Free space, then write again.
        try conn.execute("DELETE FROM t WHERE id > 10")
        try conn.transaction {
            for id in 1000..<1003 {
                try conn.execute("INSERT INTO t(id, body) VALUES (?, ?)", [id, String(repeating: "y", count: 300)])
            }
        }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 13)
        #expect(try conn.fetchOne(String.self, "PRAGMA integrity_check") == "ok")
    }

    @Test func readOnlyFileGivesATypedErrorOnWrite() async throws {
        let path = directory.path("readonly.sqlite")
        try makeDatabaseFile(at: path, rows: 5)
        let before = try fileBytes(path)
        try await withUnwritable(path) {
            let conn = try Connection(path: path)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 5)
            #expect { try conn.execute("INSERT INTO t(id, body) VALUES (99, 'x')") } throws: {
                isDatabaseError($0, code: .readOnly)
            }
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 5)
        }
        #expect(try fileBytes(path) == before)
    }

    @Test func readOnlyDirectoryGivesATypedErrorOnWrite() async throws {
        let folder = directory.path("locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/db.sqlite"
        try makeDatabaseFile(at: path, rows: 5)
        try await withUnwritable(folder) {
            // A new file cannot be created there…
            #expect { try Connection(path: folder + "/new.sqlite") } throws: { isDatabaseError($0, code: .cantOpen) }
            // …and an existing one cannot get its journal, so writes fail with a typed error.
            let conn = try Connection(path: path)
            #expect { try conn.execute("INSERT INTO t(id, body) VALUES (99, 'x')") } throws: { $0 is DatabaseError }
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 5)
        }
    }
}
