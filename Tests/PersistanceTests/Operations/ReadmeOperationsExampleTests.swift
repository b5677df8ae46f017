import Foundation
import Logging
import Testing

import Persistance

/// The README's operations example, verbatim between the markers, so it keeps compiling
/// (public API only: plain `import`).
@Suite struct ReadmeOperationsExampleTests {
    @Test func readmeOperationsExample() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("operated.sqlite")
        let backupPath = directory.path("operated-backup.sqlite")
        try makeDatabaseFile(at: path, rows: 100)
        // README example begins
        var configuration = DatabaseConfiguration(path: path)
        configuration.logger = Logger(label: "app.database")        // your application's swift-log logger
        configuration.slowStatementThreshold = .milliseconds(200)   // slower statements are warnings
        let db = try await Database.open(configuration: configuration)

        // An online backup: writes go on meanwhile; the copy appears once complete and checked.
        for try await progress in db.backup(to: backupPath) {
            print("backup: \(Int(progress.fractionCompleted * 100)) %")
        }

        // An integrity check returns a report: a damaged file is a report, not a crash.
        switch try await db.checkIntegrity(.quick) {
        case .ok: print("sound")
        case .problems(let problems): print(problems.joined(separator: "\n"))
        }
        // README example ends
        try await db.close()
        let copy = try Connection(path: backupPath)
        defer { try? copy.close() }
        #expect(try copy.fetchOne(Int.self, "SELECT count(*) FROM t") == 100)
    }
}
