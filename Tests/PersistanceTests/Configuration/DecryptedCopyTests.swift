import Foundation
import Testing

@testable import Persistance

/// A decrypted copy is built in a private temporary file (hidden, unique, 0600) beside its
/// destination and linked into place once complete: no partial plaintext is ever at the
/// destination, and what a killed run left is removed by the next one.
@Suite(.enabled(if: SQLiteEngine.isSQLCipher))
struct DecryptedCopyTests {
    private func encryptedFile(in directory: TemporaryDirectory) throws -> String {
        try makeEncryptedFile(at: directory.path("a.sqlite"), key: "k")
        return "a.sqlite"
    }

    @Test func theDestinationIsOnlyEverTheCompleteCopy() throws {
        let directory = try TemporaryDirectory()
        let file = try encryptedFile(in: directory)
        let (run, trace) = try PersistanceTool.traced(
            ["decrypt", file, "plain.sqlite"], calls: ["openat", "rename", "renameat", "renameat2", "link", "linkat"],
            environment: ["PERSISTANCE_KEY": "k"], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        let creations = trace.filter { $0.contains("openat(") && $0.contains("O_CREAT") }
        #expect(!creations.contains { $0.contains("\"plain.sqlite\"") || $0.contains("/plain.sqlite\"") }, "\(creations)")
        let privateFile = { (line: String) in
            line.contains("/.plain.sqlite.persistance-") && line.contains("O_EXCL") && line.contains("0600")
        }
        #expect(creations.contains(where: privateFile), "\(creations)")
        let isMove = { (line: String) in
            (line.contains("link") || line.contains("rename")) && line.contains("/.plain.sqlite.persistance-")
                && line.hasSuffix("\"plain.sqlite\") = 0")
        }
        #expect(trace.contains(where: isMove), "\(trace)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["a.sqlite", "plain.sqlite"])
    }

    @Test func whatAKilledDecryptLeftIsRemovedAndItRunsAgain() throws {
        let directory = try TemporaryDirectory()
        let file = try encryptedFile(in: directory)
        let partial = directory.path(".plain.sqlite.persistance-\(UUID().uuidString).tmp")
        try makeDatabaseFile(at: partial, rows: 2)
        #expect(FileManager.default.createFile(atPath: partial + "-journal", contents: Data(repeating: 1, count: 512)))
        let run = try PersistanceTool.run(["decrypt", file, "plain.sqlite"], environment: ["PERSISTANCE_KEY": "k"], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["a.sqlite", "plain.sqlite"])
        let again = try PersistanceTool.run(["decrypt", file, "plain.sqlite"], environment: ["PERSISTANCE_KEY": "k"], in: directory)
        #expect(again.status != 0)
        #expect(again.errorOutput.contains("the file exists"), "\(again.errorOutput)")
    }

    @Test func aFailedExportLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        _ = try encryptedFile(in: directory)
        var configuration = DatabaseConfiguration(path: directory.path("a.sqlite"))
        configuration.secretKeys = ["k"]
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        let missing = directory.path("missing/plain.sqlite")
        #expect { try conn.exportPlaintext(to: missing) } throws: { isDatabaseError($0, .fileSystem) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.filter { $0.hasPrefix(".") }.isEmpty, "left behind: \(names)")
    }
}
