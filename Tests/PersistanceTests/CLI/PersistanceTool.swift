import Foundation
import Testing

/// Runs the built `persistance` command-line tool, and the `sqlite3` and `sqlcipher` shells
/// that make the files it is tried on, for the tool's tests.
enum PersistanceTool {
    /// How one run ended.
    struct Run {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Runs `persistance` with `arguments` and only `environment` (plus `PATH`), standard
    /// input from /dev/null (so it never prompts), in `directory`.
    static func run(_ arguments: [String], environment: [String: String] = [:], in directory: TemporaryDirectory) throws -> Run {
        try launch(try builtExecutable("persistance"), arguments, environment: environment, in: directory)
    }

    /// Runs a shell (`sqlite3` or `sqlcipher`) on `file` with `sql` as its input, failing the test if it fails.
    @discardableResult
    static func shell(_ name: String, _ file: String, _ sql: String, in directory: TemporaryDirectory) throws -> String {
        let installed = ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first(where: FileManager.default.isExecutableFile)
        let path = try #require(installed, "the \(name) shell is missing: scripts/install-deps.sh installs it")
        let run = try launch(URL(fileURLWithPath: path), [file, sql], environment: [:], in: directory)
        #expect(run.status == 0, "\(name) failed: \(run.errorOutput)")
        return run.output
    }

    private static func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String], in directory: TemporaryDirectory
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
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errorOutput: String(decoding: errorData, as: UTF8.self))
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
