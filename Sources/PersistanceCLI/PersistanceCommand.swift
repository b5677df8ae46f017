import ArgumentParser
import Persistance

/// The `persistance` command-line tool.
@main
struct PersistanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persistance",
        abstract: "Inspect, query, check, back up and re-key Persistance (SQLite and SQLCipher) database files.",
        discussion: """
            Keys are never read from the command line: they come from an environment variable \
            (\(KeySource.defaultVariable) for the file's key, \(KeySource.defaultNewVariable) for a new key; \
            --key-env and --new-key-env name others) or, when standard input is a terminal, from a prompt \
            that does not echo. This build links \(PersistanceCommand.engineDescription).
            """,
        subcommands: [
            InfoCommand.self, QueryCommand.self, CheckCommand.self, BackupCommand.self,
            EncryptCommand.self, DecryptCommand.self, RekeyCommand.self, VacuumCommand.self,
        ])

    /// The engine this build links, in words.
    static var engineDescription: String {
        "SQLite \(SQLiteEngine.version)" + (SQLiteEngine.sqlcipherVersion.map { " with SQLCipher \($0)" } ?? " (no SQLCipher)")
    }
}
