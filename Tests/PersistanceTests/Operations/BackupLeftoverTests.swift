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

    /// A pipe whose buffer is already full: a process writing to it blocks until it is read.
    private func fullPipe() throws -> Pipe {
        let pipe = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let block = [UInt8](repeating: 0x2e, count: 4096)
        while write(descriptor, block, block.count) > 0 {}
        _ = fcntl(descriptor, F_SETFL, flags)
        return pipe
    }

    @Test func whatARealKilledToolBackupLeftIsRemovedByTheNextBackup() throws {
        let directory = try TemporaryDirectory()
        try makeDatabaseFile(at: directory.path("a.sqlite"), rows: 3_000)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.path("a.sqlite"))
        // The tool blocks writing its first progress line (after the first step) into the full
        // pipe: it is killed there, mid-copy, as a crash or `kill -9` would stop it.
        let errors = try fullPipe()
        let process = Process()
        process.executableURL = try builtExecutable("persistance")
        process.arguments = ["backup", "a.sqlite", "b.sqlite"]
        process.currentDirectoryURL = directory.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while try hiddenFiles(in: directory).isEmpty, process.isRunning, Date() < deadline {
            usleep(10_000)
        }
        usleep(200_000)
        #expect(process.isRunning, "the backup finished before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let leftovers = try hiddenFiles(in: directory)
        #expect(leftovers.contains { $0.hasPrefix(".b.sqlite.persistance-") && $0.hasSuffix(".tmp") }, "\(leftovers)")
        for name in leftovers {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.path(name))[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(name) has mode \(String(mode ?? 0, radix: 8))")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("b.sqlite")))

        let run = try PersistanceTool.run(["backup", "a.sqlite", "b.sqlite"], in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(try hiddenFiles(in: directory) == [])
        let copy = try Connection(path: directory.path("b.sqlite"))
        defer { try? copy.close() }
        #expect(try copy.fetchOne(Int.self, "SELECT count(*) FROM t") == 3_000)
    }
}
