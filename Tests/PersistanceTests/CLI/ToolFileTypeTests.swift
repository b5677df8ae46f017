import Foundation
import Testing

@testable import Persistance

/// Anything but a regular file (a FIFO, a socket, a directory, a device) is refused at once,
/// before SQLite opens it: by every subcommand of the tool, and by `Connection` and
/// `Database.open`, which would otherwise block forever on a FIFO.
@Suite struct ToolFileTypeTests {
    private func makeFIFO(in directory: TemporaryDirectory, name: String = "pipe.sqlite") throws -> String {
        let path = directory.path(name)
        try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        return path
    }

    /// Each subcommand's arguments on `file`.
    private static let commands: [[String]] = [
        ["info"], ["query", "SELECT 1"], ["check"], ["backup", "__FILE__", "copy.sqlite"], ["vacuum"], ["encrypt"],
        ["decrypt", "__FILE__", "plain.sqlite"], ["rekey"],
    ]

    private func arguments(_ command: [String], file: String) -> [String] {
        command.contains("__FILE__") ? command.map { $0 == "__FILE__" ? file : $0 } : [command[0], file] + command.dropFirst()
    }

    @Test func everyCommandRefusesAFIFOAtOnce() throws {
        let directory = try TemporaryDirectory()
        _ = try makeFIFO(in: directory)
        let keys = ["PERSISTANCE_KEY": "k", "PERSISTANCE_NEW_KEY": "n"]
        for command in Self.commands {
            let run = try PersistanceTool.run(arguments(command, file: "pipe.sqlite"), environment: keys, in: directory, timeLimit: .seconds(20))
            #expect(!run.timedOut, "\(command[0]) hung on a FIFO")
            #expect(run.status != 0)
            let refused = run.errorOutput.contains("named pipe (FIFO), not a regular file") || run.errorOutput.contains("SQLCipher trait")
            #expect(refused, "\(command[0]): \(run.errorOutput)")
        }
    }

    @Test func directoriesAndDevicesAreRefused() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("folder"), withIntermediateDirectories: false)
        for (file, kind) in [("folder", "a directory"), ("/dev/null", "a character device")] {
            let run = try PersistanceTool.run(["info", file], in: directory, timeLimit: .seconds(20))
            #expect(run.status != 0)
            #expect(run.errorOutput.contains("is \(kind), not a regular file"), "\(run.errorOutput)")
        }
    }

    /// Runs `open` on a thread of its own, failing the test if it has not returned within 20 s
    /// (the thread is then left blocked).
    private func failsAtOnce(_ name: String, _ open: @escaping @Sendable () throws -> Void) {
        let outcome = Guarded<(any Error)??>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            do {
                try open()
                outcome.withLock { $0 = .some(nil) }
            } catch {
                outcome.withLock { $0 = .some(error) }
            }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 20) == .success else {
            Issue.record("\(name) blocked on a FIFO")
            return
        }
        let error = outcome.withLock { $0 } ?? nil
        #expect(error.map { isDatabaseError($0, .notARegularFile) } == true, "\(name): \(String(describing: error))")
        #expect(error.map { isDatabaseError($0, code: .cantOpen) } == true, "\(name): \(String(describing: error))")
    }

    @Test func connectionsAndDatabasesRefuseAFIFOAtOnce() throws {
        let directory = try TemporaryDirectory()
        let fifo = try makeFIFO(in: directory)
        var options = Connection.Options()
        options.mode = .readOnly
        let readOnly = options
        failsAtOnce("Connection(path:)") { _ = try Connection(path: fifo) }
        failsAtOnce("a read-only Connection(path:)") { _ = try Connection(path: fifo, options: readOnly) }
        failsAtOnce("Database.openSync") { _ = try Database.openSync(configuration: DatabaseConfiguration(path: fifo)) }
        if SQLiteEngine.isSQLCipher {
            var configuration = DatabaseConfiguration(path: fifo)
            configuration.secretKeys = ["k"]
            let keyed = configuration
            failsAtOnce("Database.openSync with keys") { _ = try Database.openSync(configuration: keyed) }
        }
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
}
