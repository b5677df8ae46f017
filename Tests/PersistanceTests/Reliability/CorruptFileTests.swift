import Foundation
import Testing

@testable import Persistance

/// Files that are not (or no longer) sound databases give a typed error at open or at
/// first read, and are never modified by the attempt.
@Suite struct CorruptFileTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Opens `path` and reads every row; returns the error this raised, if any.
    private func openAndReadEverything(_ path: String) -> (any Error)? {
        do {
            let conn = try Connection(path: path)
            defer { try? conn.close() }
            _ = try conn.fetchAll("SELECT * FROM t")
            return nil
        } catch {
            return error
        }
    }

    @Test func randomBytesAreNotADatabase() throws {
        let path = directory.path("random.sqlite")
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(openAndReadEverything(path))
        #expect(isDatabaseError(error, code: .notADatabase))
        #expect(try fileBytes(path) == bytes)
    }

    @Test func truncatedDatabaseFailsOnRead() throws {
        let path = directory.path("truncated.sqlite")
        try makeDatabaseFile(at: path, rows: 500)
        let whole = try fileBytes(path)
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: URL(fileURLWithPath: path))
        let error = try #require(openAndReadEverything(path))
        #expect(isDatabaseError(error, code: .corrupt), "\(error)")
        #expect(try fileBytes(path) == truncated)
    }

    @Test func overwrittenPageFailsOnRead() throws {
        let path = directory.path("overwritten.sqlite")
        try makeDatabaseFile(at: path, rows: 500)
        var bytes = try fileBytes(path)
        let pageSize = 4096
        try #require(bytes.count > pageSize * 10)
        let page = 5  // a leaf of table t, well inside the file
        for offset in (page - 1) * pageSize..<page * pageSize {
            bytes[offset] = UInt8(truncatingIfNeeded: offset &* 167 ^ 0xA5)
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = try #require(openAndReadEverything(path))
        #expect(isDatabaseError(error, code: .corrupt), "\(error)")
        #expect(try fileBytes(path) == bytes)
    }

    @Test func emptyFileIsAnEmptyDatabaseAndStaysUntouched() throws {
        // SQLite treats a zero-byte file as a new, empty database: opening it is not an
        // error, reading what it lacks is, and neither writes a byte.
        let path = directory.path("empty.sqlite")
        try Data().write(to: URL(fileURLWithPath: path))
        let error = try #require(openAndReadEverything(path))
        #expect(isDatabaseError(error, code: .error))
        #expect((error as? DatabaseError)?.message.contains("no such table") == true)
        #expect(try fileBytes(path).isEmpty)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher))
    func encryptedFileWithoutAKeyIsNotADatabase() throws {
        let path = directory.path("encrypted.sqlite")
        var keyed = Connection.Options()
        keyed.prepare = { try $0.execute("PRAGMA key = 'correct horse'") }
        let writer = try Connection(path: path, options: keyed)
        try writer.execute("CREATE TABLE t(secret TEXT); INSERT INTO t VALUES ('plaintext marker')")
        try writer.close()
        let bytes = try fileBytes(path)
        #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
        let error = try #require(openAndReadEverything(path))
        #expect(isDatabaseError(error, code: .notADatabase))
        #expect(try fileBytes(path) == bytes)
        // The right key still opens it.
        let reader = try Connection(path: path, options: keyed)
        #expect(try reader.fetchOne(String.self, "SELECT secret FROM t") == "plaintext marker")
    }
}
