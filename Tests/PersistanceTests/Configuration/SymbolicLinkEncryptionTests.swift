import Foundation
import Testing

@testable import Persistance

/// Encrypting, re-keying or decrypting through a symbolic link works on the file the link
/// leads to and keeps the link; a file with other hard links is not encrypted (they would
/// keep the plaintext).
@Suite(.enabled(if: SQLiteEngine.isSQLCipher))
struct SymbolicLinkEncryptionTests {
    private static let plaintextHeader = Data("SQLite format 3\0".utf8)

    /// A plaintext database `data/real.sqlite` with 5 rows and a link `link.sqlite` to it.
    private func plaintextBehindALink(in directory: TemporaryDirectory) throws -> (target: String, link: String) {
        try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: false)
        let target = directory.path("data/real.sqlite")
        try makeDatabaseFile(at: target, rows: 5)
        try FileManager.default.createSymbolicLink(atPath: directory.path("link.sqlite"), withDestinationPath: "data/real.sqlite")
        return (target, directory.path("link.sqlite"))
    }

    private func isPlaintext(_ path: String) throws -> Bool {
        try fileBytes(path).prefix(16) == Self.plaintextHeader
    }

    private func isLink(_ path: String) throws -> Bool {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeSymbolicLink
    }

    @Test func toolEncryptsTheFileALinkLeadsTo() throws {
        let directory = try TemporaryDirectory()
        let (target, link) = try plaintextBehindALink(in: directory)
        let run = try PersistanceTool.run(["encrypt", "link.sqlite"], environment: ["PERSISTANCE_KEY": "k"], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try isLink(link))
        #expect(try !isPlaintext(target))
        let info = try PersistanceTool.run(["query", "data/real.sqlite", "SELECT count(*) AS n FROM t", "--csv"],
            environment: ["PERSISTANCE_KEY": "k"], in: directory)
        #expect(info.output == "n\r\n5\n", "\(info.errorOutput)")
    }

    @Test func openingWithKeysThroughALinkEncryptsTheFileItLeadsTo() async throws {
        let directory = try TemporaryDirectory()
        let (target, link) = try plaintextBehindALink(in: directory)
        var configuration = DatabaseConfiguration(path: link)
        configuration.secretKeys = ["k"]
        let db = try await Database.open(configuration: configuration)
        #expect(try await db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 5)
        try await db.close()
        #expect(try isLink(link))
        #expect(try !isPlaintext(target))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path("data"))
        #expect(names.filter { $0.hasPrefix(".") }.isEmpty, "left behind: \(names)")
    }

    @Test func aFileWithOtherHardLinksIsNotEncrypted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.sqlite")
        try makeDatabaseFile(at: path, rows: 5)
        try FileManager.default.linkItem(atPath: path, toPath: directory.path("other.sqlite"))
        var configuration = DatabaseConfiguration(path: path)
        configuration.secretKeys = ["k"]
        #expect { try configuration.openWriter() } throws: {
            isDatabaseError($0, .fileSystem) && "\($0)".contains("2 hard links")
        }
        #expect(try isPlaintext(path))
        let run = try PersistanceTool.run(["encrypt", "a.sqlite"], environment: ["PERSISTANCE_KEY": "k"], in: directory)
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("hard links"), "\(run.errorOutput)")
        #expect(try isPlaintext(path))
    }

    @Test func rekeyAndDecryptThroughALinkKeepTheLink() throws {
        let directory = try TemporaryDirectory()
        let (target, link) = try plaintextBehindALink(in: directory)
        #expect(try PersistanceTool.run(["encrypt", "link.sqlite"], environment: ["PERSISTANCE_KEY": "k"], in: directory).status == 0)
        let keys = ["PERSISTANCE_KEY": "k", "PERSISTANCE_NEW_KEY": "n"]
        let rekey = try PersistanceTool.run(["rekey", "link.sqlite"], environment: keys, in: directory)
        #expect(rekey.status == 0, "\(rekey.errorOutput)")
        #expect(try isLink(link))
        let decrypt = try PersistanceTool.run(["decrypt", "link.sqlite", "plain.sqlite"], environment: ["PERSISTANCE_KEY": "n"], in: directory)
        #expect(decrypt.status == 0, "\(decrypt.errorOutput)")
        #expect(try isPlaintext(directory.path("plain.sqlite")))
        #expect(try !isPlaintext(target))
    }
}
