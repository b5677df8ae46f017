import Foundation
import Testing

@testable import Persistance

/// A backup (or any copy of a database) is never written onto the database itself or its
/// journal, WAL or shared-memory file, whatever path names them.
@Suite struct BackupDestinationTests {
    /// A WAL database with 10 rows, kept open (its -wal and -shm exist), in its own directory.
    private func openDatabase() async throws -> (Database, TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let source = directory.path("game.sqlite")
        try makeDatabaseFile(at: source, rows: 10)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        try await db.write { try $0.execute("INSERT INTO t(id, body) VALUES (11, 'acknowledged')") }
        return (db, directory, source)
    }

    private func backUp(_ db: Database, to destination: String) async throws {
        for try await _ in db.backup(to: destination) {}
    }

    /// Paths that all lead to the database `source` or one of its companion files.
    private func unsafeDestinations(of source: String, in directory: TemporaryDirectory) throws -> [String] {
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: directory.path("link.sqlite"), withDestinationPath: source)
        try manager.createSymbolicLink(atPath: directory.path("wal-link"), withDestinationPath: "game.sqlite-wal")
        try manager.createSymbolicLink(atPath: directory.path("journal-link"), withDestinationPath: "game.sqlite-journal")
        try manager.linkItem(atPath: source, toPath: directory.path("hard.sqlite"))
        try manager.createDirectory(atPath: directory.path("sub"), withIntermediateDirectories: false)
        return [
            source, source + "-wal", source + "-shm", source + "-journal",
            directory.path("sub/../game.sqlite-wal"), directory.path("link.sqlite"), directory.path("wal-link"),
            directory.path("journal-link"), directory.path("hard.sqlite"),
        ]
    }

    @Test func databaseBackupRefusesTheDatabaseAndItsCompanionFiles() async throws {
        let (db, directory, source) = try await openDatabase()
        for destination in try unsafeDestinations(of: source, in: directory) {
            let backup = { try await self.backUp(db, to: destination) }
            await #expect { try await backup() } throws: { isDatabaseError($0, .unsafeDestination) }
        }
        try await db.write { try $0.execute("INSERT INTO t(id, body) VALUES (12, 'after')") }
        try await db.close()
        let reopened = try await Database.open(configuration: DatabaseConfiguration(path: source))
        #expect(try await reopened.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 12)
        #expect(try await reopened.checkIntegrity() == .ok)
        try await reopened.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty, "left behind: \(names)")
    }

    @Test func relativePathsToTheDatabaseAreRefused() async throws {
        let (db, directory, _) = try await openDatabase()
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: depth) + directory.path("game.sqlite-wal").dropFirst()
        let backup = { try await self.backUp(db, to: relative) }
        await #expect { try await backup() } throws: { isDatabaseError($0, .unsafeDestination) }
        try await db.close()
    }

    @Test func connectionBackupRefusesTheDatabaseAndItsCompanionFiles() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("game.sqlite")
        try makeDatabaseFile(at: source, rows: 10)
        let conn = try Connection(path: source)
        defer { try? conn.close() }
        try conn.execute("PRAGMA journal_mode = WAL")
        let before = try fileBytes(source)
        for destination in try unsafeDestinations(of: source, in: directory) {
            #expect { try conn.backup(to: destination) } throws: { isDatabaseError($0, .unsafeDestination) }
        }
        #expect(try fileBytes(source) == before)
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 10)
    }

    @Test func anotherDestinationIsStillBackedUp() async throws {
        let (db, directory, _) = try await openDatabase()
        try await backUp(db, to: directory.path("game.sqlite-backup"))
        try await db.close()
        let copy = try Connection(path: directory.path("game.sqlite-backup"))
        defer { try? copy.close() }
        #expect(try copy.fetchOne(Int.self, "SELECT count(*) FROM t") == 11)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher)) func decryptedCopyRefusesTheDatabaseFiles() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("secret.sqlite")
        var configuration = DatabaseConfiguration(path: source)
        configuration.secretKeys = ["k"]
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        try conn.execute("CREATE TABLE t(x)")
        for destination in [source + "-wal", source + "-journal", source + "-shm"] where !FileManager.default.fileExists(atPath: destination) {
            #expect { try conn.exportPlaintext(to: destination) } throws: { isDatabaseError($0, .unsafeDestination) }
            #expect(!FileManager.default.fileExists(atPath: destination))
        }
    }
}
