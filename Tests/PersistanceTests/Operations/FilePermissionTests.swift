import Foundation
import Testing

@testable import Persistance

/// A copy of a database (a backup, a decrypted copy) is never more permissive than the
/// database: it gets the database file's permission bits, whatever the umask.
@Suite struct FilePermissionTests {
    private func permissions(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    private func setPermissions(_ mode: Int, _ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    @Test(arguments: [0o600, 0o640, 0o664])
    func databaseBackupKeepsTheModeOfTheDatabase(mode: Int) async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 20)
        try setPermissions(mode, source)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        for try await _ in db.backup(to: directory.path("copy.sqlite")) {}
        try await db.close()
        #expect(try permissions(directory.path("copy.sqlite")) == mode)
    }

    @Test func connectionBackupReplacingAWiderFileKeepsTheModeOfTheDatabase() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 20)
        try setPermissions(0o600, source)
        try makeDatabaseFile(at: directory.path("copy.sqlite"), rows: 1)
        try setPermissions(0o666, directory.path("copy.sqlite"))
        let conn = try Connection(path: source)
        defer { try? conn.close() }
        try conn.backup(to: directory.path("copy.sqlite"))
        #expect(try permissions(directory.path("copy.sqlite")) == 0o600)
    }

    @Test func toolBackupKeepsTheModeOfTheDatabase() throws {
        let directory = try TemporaryDirectory()
        try makeDatabaseFile(at: directory.path("a.sqlite"), rows: 20)
        try setPermissions(0o600, directory.path("a.sqlite"))
        let run = try PersistanceTool.run(["backup", "a.sqlite", "b.sqlite"], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try permissions(directory.path("b.sqlite")) == 0o600)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher)) func toolBackupWithANewKeyKeepsTheModeOfTheDatabase() throws {
        let directory = try TemporaryDirectory()
        try makeEncryptedFile(at: directory.path("a.sqlite"), key: "old")
        try setPermissions(0o600, directory.path("a.sqlite"))
        let keys = ["PERSISTANCE_KEY": "old", "PERSISTANCE_NEW_KEY": "new"]
        let run = try PersistanceTool.run(["backup", "a.sqlite", "b.sqlite", "--new-key"], environment: keys, in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try permissions(directory.path("b.sqlite")) == 0o600)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher)) func decryptedCopyIsNeverWiderThanTheDatabase() throws {
        let directory = try TemporaryDirectory()
        try makeEncryptedFile(at: directory.path("a.sqlite"), key: "k")
        for (mode, expected) in [(0o640, 0o600), (0o644, 0o600)] {
            try setPermissions(mode, directory.path("a.sqlite"))
            let destination = "plain-\(String(mode, radix: 8)).sqlite"
            let run = try PersistanceTool.run(["decrypt", "a.sqlite", destination], environment: ["PERSISTANCE_KEY": "k"], in: directory)
            #expect(run.status == 0, "\(run.errorOutput)")
            #expect(try permissions(directory.path(destination)) == expected)
        }
    }
}
