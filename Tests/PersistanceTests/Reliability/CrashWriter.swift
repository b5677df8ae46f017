import Foundation
import Testing

@testable import Persistance

/// Runs the `persistance-crash-writer` executable (built beside the test bundle by
/// `swift build` / `swift test`) and kills it, for the crash-safety tests.
enum CrashWriter {
    /// How one run ended and what it reported.
    struct Run {
        /// The complete lines the writer printed: each one a change it saw committed.
        var lines: [String]
        /// Whether our SIGKILL ended it (rather than the writer exiting by itself).
        var wasKilled: Bool
        /// The exit status, or the signal number when it was killed.
        var status: Int32
        /// What it printed on standard error (its failure, if any).
        var errorOutput: String
    }

    /// The path of the executable: beside the test bundle, in the build's products folder.
    static func executable() throws -> URL {
        try builtExecutable("persistance-crash-writer")
    }

    /// When a run is killed.
    enum KillMoment {
        /// This long after the process starts (often while it opens the database).
        case afterStart(Duration)
        /// This long after it reports its first change (while it is busy changing things).
        case afterFirstReport(Duration)

        /// One of the two, at random, with a delay of up to `maximum`.
        static func random(upTo maximum: Duration) -> KillMoment {
            let delay = maximum * Double.random(in: 0...1)
            return Bool.random() ? .afterStart(delay) : .afterFirstReport(delay)
        }
    }

    /// Starts the writer with `arguments`, kills it with SIGKILL at `moment` unless it has
    /// exited by then, and returns how it ended.
    static func run(_ arguments: [String], killedAt moment: KillMoment) async throws -> Run {
        try await run(arguments) { process, output in
            switch moment {
            case .afterStart(let delay):
                try? await Task.sleep(for: delay)
            case .afterFirstReport(let delay):
                await output.firstLine.value
                try? await Task.sleep(for: delay)
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Runs the writer with `arguments` to its end; kills it, failing the test, if it is
    /// still running after `seconds`.
    static func runToEnd(_ arguments: [String], within seconds: Double = 60) async throws -> Run {
        let run = try await run(arguments) { process, _ in
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        #expect(!run.wasKilled, "the crash writer did not finish within \(seconds) s")
        return run
    }

    /// Starts the writer with `arguments`, runs `stop` with the running process (which may
    /// signal it), then waits for the process to end and returns how it ended.
    static func run(
        _ arguments: [String], stopping stop: (Process, OutputReader) async -> Void
    ) async throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exited = OneShot<Void>()
        process.terminationHandler = { _ in exited.fulfill(()) }
        // Drain both pipes while the writer runs, so it never blocks on a full pipe.
        let printed = OutputReader(output), errorOutput = OutputReader(errors)
        try process.run()
        await stop(process, printed)
        await exited.value
        let text = String(decoding: await printed.all.value, as: UTF8.self)
        // A line without its newline was being written when the process died: not reported.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return Run(
            lines: lines,
            wasKilled: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            status: process.terminationStatus,
            errorOutput: String(decoding: await errorOutput.all.value, as: UTF8.self))
    }

    /// Reads a pipe to its end on a thread of its own, telling when the first line is complete.
    final class OutputReader: Sendable {
        /// Set when a first newline has arrived, or the pipe has ended.
        let firstLine = OneShot<Void>()
        /// Everything read, set when the pipe has ended.
        let all = OneShot<Data>()

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread { [firstLine, all] in
                var data = Data()
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    data.append(chunk)
                    if chunk.contains(UInt8(ascii: "\n")) { firstLine.fulfill(()) }
                }
                firstLine.fulfill(())
                all.fulfill(data)
            }.start()
        }
    }
}
