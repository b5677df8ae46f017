import ArgumentParser
import Persistance

/// `persistance vacuum FILE`: the file rebuilt, free pages returned to the file system.
struct VacuumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vacuum",
        abstract: "Rebuild the database file compactly (VACUUM), keeping its key.")

    @OptionGroup var database: DatabaseFileOptions

    func run() throws {
        let conn = try database.open(readOnly: false)
        defer { try? conn.close() }
        do {
            let before = try conn.fetchOne(Int.self, "PRAGMA page_count") ?? 0
            try conn.execute("VACUUM")
            let after = try conn.fetchOne(Int.self, "PRAGMA page_count") ?? 0
            print("vacuumed \(database.file): \(before) → \(after) pages")
        } catch {
            throw CLIError.oneLine(error)
        }
    }
}
