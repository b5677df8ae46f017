import Foundation
import Testing

@testable import Persistance

/// Runs the built `persistance` command-line tool, and the `sqlite3` and `sqlcipher` shells
/// that make the files it is tried on, for the tool's tests.
enum PersistanceTool {
    /// How one run ended.
    struct Run {
        var status: Int32
        var output: String
        var errorOutput: String
        /// Whether the run was killed for taking longer than its time limit.
        var timedOut = false
    }

    /// Runs `persistance` with `arguments` and only `environment` (plus `PATH`), standard
    /// input from /dev/null (so it never prompts), in `directory`; kills it after `timeLimit`.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: TemporaryDirectory,
        timeLimit: Duration = .seconds(120)
    ) throws -> Run {
        try launch(try builtExecutable("persistance"), arguments, environment: environment, in: directory, timeLimit: timeLimit)
    }

    /// Runs `persistance` with `arguments` under `strace -f -y`, recording the system calls
    /// `calls` with the paths of their descriptors; returns the run and the trace's lines.
    static func traced(
        _ arguments: [String], calls: [String], environment: [String: String] = [:], in directory: TemporaryDirectory
    ) throws -> (Run, [String]) {
        let strace = try #require(
            ["/usr/bin/strace", "/bin/strace"].first(where: FileManager.default.isExecutableFile), "strace is missing")
        let trace = directory.path("strace.out")
        let run = try launch(
            URL(fileURLWithPath: strace),
            ["-f", "-y", "-qq", "-o", trace, "-e", "trace=" + calls.joined(separator: ","), try builtExecutable("persistance").path]
                + arguments,
            environment: environment, in: directory, timeLimit: .seconds(120))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        try FileManager.default.removeItem(atPath: trace)
        return (run, lines)
    }

    /// Runs a shell (`sqlite3` or `sqlcipher`) on `file` with `sql` as its input, failing the test if it fails.
    @discardableResult
    static func shell(_ name: String, _ file: String, _ sql: String, in directory: TemporaryDirectory) throws -> String {
        let installed = ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first(where: FileManager.default.isExecutableFile)
        let path = try #require(installed, "the \(name) shell is missing: scripts/install-deps.sh installs it")
        let run = try launch(URL(fileURLWithPath: path), [file, sql], environment: [:], in: directory, timeLimit: .seconds(120))
        #expect(run.status == 0, "\(name) failed: \(run.errorOutput)")
        return run.output
    }

    private static func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String], in directory: TemporaryDirectory,
        timeLimit: Duration
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        let seconds = Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        let errorData = Guarded(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            errorsRead.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        killer.cancel()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData.withLock { $0 }, as: UTF8.self),
            timedOut: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }
}

/// The path of an executable of this package: beside the test bundle, in the build's products folder.
func builtExecutable(_ name: String) throws -> URL {
    let candidates = [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()]
        + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
    let found = candidates.map { $0.appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    return try #require(found, "\(name) not found beside the test bundle; build it with `swift build`")
}
