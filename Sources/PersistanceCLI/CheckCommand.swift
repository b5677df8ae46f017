import ArgumentParser
import Foundation
import Persistance

/// `persistance check FILE`: an integrity check whose exit status is the verdict.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the file's integrity: exit status 0 when sound, 1 when it has problems (printed), 2 when it cannot be checked.")

    @OptionGroup var database: DatabaseFileOptions

    @Flag(help: "Also check that every index matches its table (PRAGMA integrity_check); slower.")
    var full = false

    func run() throws {
        let report: IntegrityReport
        do {
            let conn = try Connection(path: database.file, options: try database.options())
            defer { try? conn.close() }
            report = try conn.checkIntegrity(full ? .full : .quick)
        } catch let error as DatabaseError where error.resultCode == .corrupt {
            report = .problems([error.message])
        } catch {
            FileHandle.standardError.write(Data("Error: \(CLIError.oneLine(error))\n".utf8))
            throw ExitCode(2)
        }
        switch report {
        case .ok:
            print("ok (\(full ? "full" : "quick") check)")
        case .problems(let problems):
            problems.forEach { print($0) }
            throw ExitCode(1)
        }
    }
}
