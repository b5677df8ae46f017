import Foundation
import Persistance

// A helper for the crash-safety tests: it changes a database in a loop through the library
// and reports on standard output each change once it is committed, one line per change.
// The tests kill it with SIGKILL at random moments, then check that the file is sound and
// holds every change reported.
//
//     persistance-crash-writer commit  <path> [--key K]... [--cycles N]
//     persistance-crash-writer rotate  <path> --key A --key B [--cycles N]
//     persistance-crash-writer migrate <path> [--key K]... [--cycles N]
//     persistance-crash-writer convert <path> --key K...
//     persistance-crash-writer documents <path> [--key K]... [--cycles N]
//
// Without --cycles it runs until killed. It exits with status 1 and a message on standard
// error as soon as anything fails, so a test can tell a failure from its own kill.
do {
    let arguments = try CrashWriterArguments(CommandLine.arguments.dropFirst())
    switch arguments.mode {
    case .commit: try await runCommitLoop(arguments)
    case .rotate: try await runKeyRotationLoop(arguments)
    case .migrate: try await runMigrationLoop(arguments)
    case .convert: try await runConversion(arguments)
    case .documents: try await runDocumentCacheLoop(arguments)
    }
} catch {
    FileHandle.standardError.write(Data("persistance-crash-writer: \(error)\n".utf8))
    exit(1)
}
