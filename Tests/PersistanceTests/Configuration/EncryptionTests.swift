import Foundation
import Testing

@testable import Persistance

/// Encryption with SQLCipher: new files, key rotation, plaintext conversion, wrong keys.
/// Each open derives a key (~50 ms), so the tests keep their opens few.
@Suite(.enabled(if: SQLiteEngine.isSQLCipher))
struct EncryptionTests {
    private static let marker = "PLAINTEXT-MARKER-4f2a9c"

    private struct Interrupted: Error {}

    private static func configuration(_ directory: TemporaryDirectory, keys: [String]) -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration(path: directory.path("secret.sqlite"))
        configuration.secretKeys = keys
        return configuration
    }

    /// Creates the database (encrypted with `keys`, or plaintext) holding the marker row.
    @discardableResult
    private static func create(_ directory: TemporaryDirectory, keys: [String]) throws -> String {
        let conn = try configuration(directory, keys: keys).openWriter()
        try conn.execute("CREATE TABLE t(v TEXT); INSERT INTO t VALUES (?)", [marker])
        try conn.close()
        return directory.path("secret.sqlite")
    }

    /// Opens the writer with `keys` and reads the marker row back.
    private static func read(_ directory: TemporaryDirectory, keys: [String]) throws -> String? {
        let conn = try configuration(directory, keys: keys).openWriter()
        defer { try? conn.close() }
        #expect(try conn.fetchOne(String.self, "PRAGMA integrity_check") == "ok")
        return try conn.fetchOne(String.self, "SELECT v FROM t")
    }

    /// Whether exactly `key` opens the file.
    private static func opens(_ path: String, with key: String) throws -> Bool {
        var options = Connection.Options()
        options.mode = .readOnly
        do {
            try Connection(path: path, options: SecretKeys.options(options, keyedWith: key)).close()
            return true
        } catch ResultCode.notADatabase {
            return false
        }
    }

    /// The names of the files in `directory`, sorted (empty if it cannot be listed).
    private static func names(in directory: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).sorted()
    }

    /// Checks the file looks encrypted: no SQLite header, no readable marker.
    private static func expectEncrypted(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!bytes.starts(with: Data("SQLite format 3".utf8)), sourceLocation: sourceLocation)
        #expect(bytes.range(of: Data(marker.utf8)) == nil, sourceLocation: sourceLocation)
    }

    @Test func newFileIsEncryptedWithTheNewestKey() throws {
        #expect(SQLiteEngine.sqlcipherVersion != nil)
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: ["old", "new"])
        try Self.expectEncrypted(path)
        #expect(try Self.opens(path, with: "new"))
        #expect(try !Self.opens(path, with: "old"))
    }

    @Test(arguments: 0...3)
    func fileKeyedWithAnOlderKeyIsRekeyedToTheNewest(keyedWith index: Int) throws {
        let directory = try TemporaryDirectory()
        let keys = (0...4).map { "key-\($0)" }
        let path = try Self.create(directory, keys: [keys[index]])

        #expect(try Self.read(directory, keys: keys) == Self.marker)
        #expect(Self.names(in: directory) == ["secret.sqlite"])
        try Self.expectEncrypted(path)
        #expect(try Self.opens(path, with: keys[4]))
        #expect(try !Self.opens(path, with: keys[index]))
    }

    @Test func plaintextFileIsEncryptedInPlaceWithTheNewestKey() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: [])
        let plain = try Connection(path: path)
        try plain.execute("PRAGMA user_version = 7")
        try plain.close()

        let newest = "o'brien\"; DROP TABLE t; --"
        #expect(try Self.read(directory, keys: ["older", newest]) == Self.marker)
        try Self.expectEncrypted(path)
        #expect(try Self.opens(path, with: newest))
        let conn = try Self.configuration(directory, keys: [newest]).openWriter()
        #expect(try conn.fetchOne(Int.self, "PRAGMA user_version") == 7)
        try conn.close()
        #expect(Self.names(in: directory) == ["secret.sqlite"])
    }

    @Test func nonASCIIKeyWorksAsItsUTF8Bytes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: ["密码"])
        #expect(try Self.read(directory, keys: ["密码"]) == Self.marker)
        #expect(try !Self.opens(path, with: "密"))
        try Self.expectEncrypted(path)
    }

    @Test func wrongKeysFailWithoutTouchingTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: ["right"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let error = expectThrows(.wrongKey) {
            try Self.configuration(directory, keys: ["wrong-1", "wrong-2"]).openWriter()
        }
        #expect(error?.message.contains("opening secret.sqlite") == true)
        #expect(error?.description.contains("wrong-") == false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(Self.names(in: directory) == ["secret.sqlite"])
        let readerError = #expect(throws: DatabaseError.self) {
            try Self.configuration(directory, keys: ["wrong-1"]).openReader()
        }
        #expect(readerError?.kind == .wrongKey && readerError?.resultCode == .notADatabase)
    }

    @Test func interruptedConversionLeavesThePlaintextFileUsable() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: [])
        var keys = try #require(try SecretKeys(["key"]))
        keys.interruption = { if $0 == .beforeReplacingFile { throw Interrupted() } }
        #expect(throws: Interrupted.self) { try keys.openWriter(path: path, options: Connection.Options()) }

        #expect(Self.names(in: directory) == ["secret.sqlite"])
        let plain = try Connection(path: path)
        #expect(try plain.fetchOne(String.self, "SELECT v FROM t") == Self.marker)
        try plain.close()
        #expect(try Self.read(directory, keys: ["key"]) == Self.marker)
        try Self.expectEncrypted(path)
    }

    @Test func interruptedRotationLeavesTheFileUsableWithItsOldKey() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: ["old"])
        var keys = try #require(try SecretKeys(["old", "new"]))
        keys.interruption = { if $0 == .beforeRekey { throw Interrupted() } }
        #expect(throws: Interrupted.self) { try keys.openWriter(path: path, options: Connection.Options()) }

        #expect(try Self.opens(path, with: "old"))
        #expect(try Self.read(directory, keys: ["old", "new"]) == Self.marker)
        #expect(try Self.opens(path, with: "new"))
    }

    @Test func rekeyThatCannotTakeTheWriteLockIsReportedAndTheFileKeepsItsKey() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: ["old"])
        let blocker = try Self.configuration(directory, keys: ["old"]).openWriter()
        try blocker.execute("BEGIN IMMEDIATE")

        var configuration = Self.configuration(directory, keys: ["old", "new"])
        configuration.connectionOptions.busyTimeout = .milliseconds(20)
        expectThrows(.rekeyFailed) { try configuration.openWriter() }
        try blocker.execute("ROLLBACK")
        try blocker.close()

        #expect(try Self.opens(path, with: "old"))
        #expect(try Self.read(directory, keys: ["old", "new"]) == Self.marker)
    }

    @Test func changeEncryptionKeyRekeysAnOpenDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.create(directory, keys: ["a"])
        let conn = try Self.configuration(directory, keys: ["a"]).openWriter()
        expectThrows(.configuration) { try conn.changeEncryptionKey(to: "") }
        try conn.transaction {
            expectThrows(.misuse) { try conn.changeEncryptionKey(to: "b") }
        }
        try conn.changeEncryptionKey(to: "b")
        try conn.execute("INSERT INTO t VALUES ('after')")
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 2)
        try conn.close()
        #expect(try Self.opens(path, with: "b"))
        #expect(try !Self.opens(path, with: "a"))

        let plain = try Connection(path: directory.path("plain.sqlite"))
        try plain.execute("CREATE TABLE t(v)")
        expectThrows(.rekeyFailed) { try plain.changeEncryptionKey(to: "b") }
        try plain.close()
    }

    @Test func exportPlaintextWritesADecryptedCopy() throws {
        let directory = try TemporaryDirectory()
        try Self.create(directory, keys: ["a"])
        let conn = try Self.configuration(directory, keys: ["a"]).openWriter()
        let copy = directory.path("copy.sqlite")
        try conn.exportPlaintext(to: copy)
        expectThrows(.misuse) { try conn.exportPlaintext(to: copy) }
        try conn.close()

        let plain = try Connection(path: copy)
        #expect(try plain.fetchOne(String.self, "SELECT v FROM t") == Self.marker)
        try plain.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)).starts(with: Data("SQLite format 3".utf8)))
    }

    @Test func readerOpensWithTheNewestKeyReadOnly() throws {
        let directory = try TemporaryDirectory()
        try Self.create(directory, keys: ["a", "b"])
        let reader = try Self.configuration(directory, keys: ["a", "b"]).openReader()
        #expect(try reader.fetchOne(String.self, "SELECT v FROM t") == Self.marker)
        let error = #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES ('x')") }
        #expect(error?.resultCode == .readOnly)
        try reader.close()
    }

    @Test(arguments: ["", "with\0nul"])
    func unusableKeysAreRejectedBeforeTheFileIsCreated(key: String) throws {
        let directory = try TemporaryDirectory()
        let error = expectThrows(.configuration) { try Self.configuration(directory, keys: [key, "fine"]).openWriter() }
        #expect(error?.description.contains("nul") == false)
        #expect(Self.names(in: directory) == [])
    }
}
