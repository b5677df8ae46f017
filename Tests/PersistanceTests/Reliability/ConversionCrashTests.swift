import Foundation
import Testing

@testable import Persistance

/// What a process killed while it encrypts a plaintext database leaves behind is removed by
/// the next open, never the temporary file of a conversion still running; and processes
/// creating the same encrypted database at once all open the same file.
@Suite(.enabled(if: SQLiteEngine.isSQLCipher), .timeLimit(.minutes(3)))
struct ConversionCrashTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static let key = "conversion-crash-key"
    /// Rows of ~200 bytes: a database of ~14 MB, more than SQLite's page cache holds.
    static let rows = 70_000
    private var path: String { directory.path("plain.sqlite") }
    private var convertArguments: [String] { ["convert", path, "--key", Self.key] }

    /// The temporary files of conversions beside `plain.sqlite` (with their journals).
    private func leftovers() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
        return names.filter { $0.hasPrefix(".plain.sqlite.persistance-") }.sorted()
    }

    /// Waits until a conversion's temporary file not named in `ignored` exists, or the writer
    /// ends; true in the first case. It polls on its own thread's time (not by suspending,
    /// which a busy task pool may resume too late), and the large export keeps the file in
    /// place for long after it appears.
    private func awaitTemporaryFile(_ process: Process, ignoring ignored: [String]) -> Bool {
        while process.isRunning {
            if leftovers().contains(where: { $0.hasSuffix(".tmp") && !ignored.contains($0) }) { return true }
            usleep(200)
        }
        return false
    }

    private func expectPlaintext(_ sourceLocation: SourceLocation = #_sourceLocation) throws {
        let header = try fileBytes(path).prefix(16)
        #expect(header == Data("SQLite format 3\0".utf8), "the conversion finished before the kill", sourceLocation: sourceLocation)
    }

    @Test func leftoversOfKilledConversionsAreRemovedByTheNextOpen() async throws {
        try makeDatabaseFile(at: path, rows: Self.rows)
        var earlier: [String] = []
        for _ in 1...3 {
            let run = try await CrashWriter.run(convertArguments) { process, _ in
                let inProgress = awaitTemporaryFile(process, ignoring: earlier)
                #expect(inProgress, "the conversion ended before it could be killed")
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            #expect(run.wasKilled, "\(run.errorOutput)")
            try expectPlaintext()
            // Each kill leaves its own temporary file; the next run's open removed the earlier ones.
            let temporaries = leftovers().filter { $0.hasSuffix(".tmp") }
            #expect(temporaries.count == 1, "\(leftovers())")
            #expect(Set(temporaries).isDisjoint(with: earlier), "\(temporaries) after \(earlier)")
            earlier += temporaries
        }

        var configuration = DatabaseConfiguration(path: path)
        configuration.secretKeys = [Self.key]
        let conn = try configuration.openWriter()
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == Self.rows)
        try conn.close()
        #expect(leftovers() == [])
        #expect(try !fileBytes(path).starts(with: Data("SQLite format 3".utf8)))
    }

    @Test func theTemporaryFileOfALiveConversionIsNotRemoved() async throws {
        try makeDatabaseFile(at: path, rows: Self.rows)
        // What a process that died earlier left: no one holds its lock.
        let abandonedName = ".plain.sqlite.persistance-\(UUID().uuidString).tmp"
        let abandoned = directory.path(abandonedName)
        #expect(FileManager.default.createFile(atPath: abandoned, contents: Data("old".utf8)))
        #expect(FileManager.default.createFile(atPath: abandoned + "-journal", contents: Data("old".utf8)))

        let run = try await CrashWriter.run(convertArguments) { process, _ in
            let inProgress = awaitTemporaryFile(process, ignoring: [abandonedName])
            #expect(inProgress, "the conversion ended before it could be stopped")
            guard process.isRunning, kill(process.processIdentifier, SIGSTOP) == 0 else { return }
            let temporaries = leftovers().filter { $0.hasSuffix(".tmp") && directory.path($0) != abandoned }
            #expect(temporaries.count == 1)
            // The conversion creates its file, then locks it: a stop between the two leaves a
            // file nobody uses yet, which may go (the conversion then takes another name).
            // A locked one is in use and must stay.
            let live = temporaries.filter { isLockedByAnotherProcess(directory.path($0)) }
            TemporaryDatabaseFile.removeLeftovers(besides: path)
            #expect(!FileManager.default.fileExists(atPath: abandoned))
            #expect(!FileManager.default.fileExists(atPath: abandoned + "-journal"))
            let kept = live.allSatisfy { FileManager.default.fileExists(atPath: directory.path($0)) }
            #expect(kept, "a live conversion's file was removed")
            kill(process.processIdentifier, SIGCONT)
        }
        #expect(run.status == 0 && run.lines == ["opened"], "\(run.errorOutput)")
        #expect(leftovers() == [])
        var configuration = DatabaseConfiguration(path: path)
        configuration.secretKeys = [Self.key]
        let conn = try configuration.openWriter()
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == Self.rows)
        try conn.close()
    }

    @Test func processesCreatingTheSameEncryptedDatabaseAllSucceed() async throws {
        let path = directory.path("new.sqlite")
        let arguments = ["convert", path, "--key", Self.key]
        let runs = try await withThrowingTaskGroup(of: CrashWriter.Run.self) { group in
            for _ in 1...6 {
                group.addTask { try await CrashWriter.runToEnd(arguments) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for run in runs {
            #expect(run.status == 0 && run.lines == ["opened"], "\(run.errorOutput)")
        }
        var configuration = DatabaseConfiguration(path: path)
        configuration.secretKeys = [Self.key]
        let conn = try configuration.openWriter()
        #expect(try conn.fetchOne(String.self, "PRAGMA integrity_check") == "ok")
        try conn.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.filter { $0.contains("persistance-") } == [])

        let wrongKey = try await CrashWriter.runToEnd(["convert", path, "--key", "another-key"])
        #expect(wrongKey.status == 1 && wrongKey.errorOutput.contains("DatabaseError.wrongKey"), "\(wrongKey.errorOutput)")
    }
}

/// Whether another process holds an exclusive `flock` on the file at `path` (a running
/// conversion's temporary file). Takes and drops the lock when nobody holds it.
private func isLockedByAnotherProcess(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
}
