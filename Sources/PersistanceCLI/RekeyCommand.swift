import ArgumentParser
import Persistance

/// `persistance rekey FILE`: an encrypted database re-encrypted with a new key.
struct RekeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Re-encrypt an encrypted database in place: its key from --key-env, the new one from --new-key-env.",
        discussion: "Stop applications using the file first: their connections keep the old key.")

    @OptionGroup var database: DatabaseFileOptions

    @Option(name: .customLong("new-key-env"), help: "The environment variable holding the new key.")
    var newKeyVariable = KeySource.defaultNewVariable

    func run() throws {
        guard SQLiteEngine.isSQLCipher else { throw CLIError.needsSQLCipher("rekey") }
        guard try !database.isPlaintext() else { throw CLIError("\(database.file) is not encrypted; use 'encrypt'") }
        let conn = try database.open(readOnly: false)
        defer { try? conn.close() }
        let newKey = try KeySource(variable: newKeyVariable, prompt: "New key: ").confirmedKey()
        do {
            try conn.changeEncryptionKey(to: newKey)
        } catch {
            throw CLIError.oneLine(error)
        }
        print("re-keyed \(database.file)")
    }
}
