import Foundation
import Testing

@testable import Persistance

/// Plaintext → encrypted conversion and decrypted exports leave files as their owner set
/// them: a file the process may not write stays byte-identical, failures keep SQLite's
/// result code, the encrypted file keeps the original's mode and owner, and a decrypted copy
/// is private.
@Suite(.enabled(if: SQLiteEngine.isSQLCipher))
struct ConversionSafetyTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    private var path: String { directory.path("plain.sqlite") }

    private func openWriter(keys: [String] = ["conversion-key"]) throws -> Connection {
        var configuration = DatabaseConfiguration(path: path)
        configuration.secretKeys = keys
        return try configuration.openWriter()
    }

    /// The names in the test's directory other than `plain.sqlite`.
    private func otherFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0 != "plain.sqlite" }.sorted()
    }

    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func readOnlyPlaintextFileIsLeftByteIdentical() throws {
        try makeDatabaseFile(at: path, rows: 20)
        let before = try fileBytes(path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let error = expectThrows(.fileSystem) { try openWriter() }
        #expect(error?.message.contains("read-only") == true, "\(String(describing: error))")
        #expect(try fileBytes(path) == before)
        #expect(try mode(path) == 0o444)
        #expect(try otherFiles() == [])
    }

    @Test func plaintextFileInAReadOnlyDirectoryIsLeftByteIdentical() throws {
        try makeDatabaseFile(at: path, rows: 20)
        let before = try fileBytes(path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path) }
        let error = expectThrows(.fileSystem) { try openWriter() }
        #expect(error?.message.contains("its directory is read-only") == true, "\(String(describing: error))")
        #expect(try fileBytes(path) == before)
        #expect(try otherFiles() == [])
    }

    @Test func conversionKeepsTheOriginalsMode() throws {
        try makeDatabaseFile(at: path, rows: 5)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try openWriter().close()
        #expect(try mode(path) == 0o640)
        #expect(try fileBytes(path).starts(with: Data("SQLite format 3".utf8)) == false)
    }

    @Test(.enabled(if: geteuid() == 0, "changing a file's owner needs root"))
    func conversionAsRootKeepsTheOriginalsOwner() throws {
        try makeDatabaseFile(at: path, rows: 5)
        let nobody: uid_t = 65_534
        #expect(chown(path, nobody, nobody) == 0)
        try openWriter().close()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.ownerAccountID] as? Int == Int(nobody))
        #expect(attributes[.groupOwnerAccountID] as? Int == Int(nobody))
    }

    @Test func decryptedExportIsPrivate() throws {
        let conn = try openWriter()
        defer { try? conn.close() }
        try conn.execute("CREATE TABLE t(v); INSERT INTO t VALUES ('x')")
        let copy = directory.path("copy.sqlite")
        try conn.exportPlaintext(to: copy)
        #expect(try mode(copy) == 0o600)
        #expect(try Connection(path: copy).fetchOne(String.self, "SELECT v FROM t") == "x")
        expectThrows(.misuse) { try conn.exportPlaintext(to: copy) }
        #expect(try mode(copy) == 0o600)
    }

    @Test func diskFullDuringExportIsResultCodeFull() throws {
        try makeDatabaseFile(at: path, rows: 200)
        let conn = try Connection(path: path)
        defer { try? conn.close() }
        let destination = directory.path("export.tmp")
        #expect(FileManager.default.createFile(atPath: destination, contents: nil))
        try conn.attachExport(destination, key: "conversion-key")
        try conn.execute("PRAGMA persistance_export.max_page_count = 3")
        var caughtAsFull = false
        do {
            try conn.exportToAttached()
        } catch ResultCode.full {
            caughtAsFull = true
        }
        #expect(caughtAsFull)
        // Detached after the failure: the main database is still usable.
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 200)
        #expect(try conn.fetchAll("PRAGMA database_list").count == 1)
    }

    @Test func corruptPageDuringConversionKeepsSQLitesCodeAndTheFile() throws {
        try makeDatabaseFile(at: path, rows: 200)
        // Page 2 is the table's root: a page type byte that is no b-tree page's.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let pageSize = 4096
        try handle.seek(toOffset: UInt64(pageSize))
        try handle.write(contentsOf: Data([0x6B]))
        try handle.close()
        let before = try fileBytes(path)
        let plainError = expectThrows(.sqlite) { try Connection(path: path).fetchAll("SELECT * FROM t") }
        let plainCode = try #require(plainError?.resultCode)
        #expect(plainCode != .error)

        let error = expectThrows(.sqlite) { try openWriter() }
        #expect(error?.resultCode == plainCode, "\(String(describing: error))")
        #expect(try fileBytes(path) == before)
        #expect(try otherFiles() == [])
    }
}
