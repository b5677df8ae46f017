import Foundation
import Testing

@testable import Persistance

/// What a killed backup leaves beside its destination (its temporary copy and that copy's
/// WAL and shared memory) is removed by the next backup to the destination and by an open of
/// the destination; the temporary file of a backup still running is left alone.
@Suite struct BackupLeftoverTests {
    /// The files a backup killed while copying a WAL database to `destination` leaves: an
    /// unlocked temporary copy (named as this version and the previous one named them) with
    /// its -wal and -shm, mode 0644.
    private func leaveKilledBackupFiles(besides destination: String) throws -> [String] {
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent()
        var files = [String]()
        for infix in ["", "backup-"] {
            let temporary = directory.appendingPathComponent(
                ".\(url.lastPathComponent).persistance-\(infix)\(UUID().uuidString).tmp").path
            try makeDatabaseFile(at: temporary, rows: 3)
            for path in [temporary, temporary + "-wal", temporary + "-shm"] {
                if !FileManager.default.fileExists(atPath: path) {
                    #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 64)))
                }
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
                files.append(path)
            }
        }
        return files
    }

    private func hiddenFiles(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") }
    }

    @Test func theNextBackupToTheDestinationRemovesWhatAKilledOneLeft() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 20)
        let destination = directory.path("copy.sqlite")
        _ = try leaveKilledBackupFiles(besides: destination)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        for try await _ in db.backup(to: destination) {}
        try await db.close()
        #expect(try hiddenFiles(in: directory) == [])
        let copy = try Connection(path: destination)
        defer { try? copy.close() }
        #expect(try copy.fetchOne(Int.self, "SELECT count(*) FROM t") == 20)
    }

    @Test func theToolsBackupRemovesWhatAKilledOneLeft() throws {
        let directory = try TemporaryDirectory()
        try makeDatabaseFile(at: directory.path("a.sqlite"), rows: 20)
        _ = try leaveKilledBackupFiles(besides: directory.path("b.sqlite"))
        let run = try PersistanceTool.run(["backup", "a.sqlite", "b.sqlite"], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try hiddenFiles(in: directory) == [])
    }

    @Test func openingTheDestinationRemovesWhatAKilledBackupLeft() async throws {
        let directory = try TemporaryDirectory()
        let destination = directory.path("copy.sqlite")
        try makeDatabaseFile(at: destination, rows: 2)
        _ = try leaveKilledBackupFiles(besides: destination)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: destination))
        #expect(try hiddenFiles(in: directory) == [])
        try await db.close()
    }

    @Test func theFileOfABackupStillRunningIsLeftAlone() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 20)
        let destination = directory.path("copy.sqlite")
        let running = try TemporaryDatabaseFile(besides: destination, permissions: 0o600)
        defer { running.removeAndClose() }
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        for try await _ in db.backup(to: destination) {}
        try await db.close()
        #expect(FileManager.default.fileExists(atPath: running.path))
    }
}
