import ArgumentParser
import Persistance

/// `persistance backup FILE DEST`: an online copy, encrypted like the source unless a new key is asked for.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database online (while applications keep writing) into DEST, replacing it.",
        discussion: """
            The copy is one consistent snapshot and passes an integrity check before it replaces DEST. \
            An encrypted database's copy is encrypted with the same key, or with a new one (--new-key).
            """)

    @OptionGroup var database: DatabaseFileOptions

    @Argument(help: "Where to write the copy.", completion: .file())
    var destination: String

    @Flag(help: "Encrypt the copy with a new key (from --new-key-env, or asked for).")
    var newKey = false

    @Option(name: .customLong("new-key-env"), help: "The environment variable holding the new key.")
    var newKeyVariable = KeySource.defaultNewVariable

    func run() throws {
        let isPlaintext = try database.isPlaintext()
        if newKey && !SQLiteEngine.isSQLCipher { throw CLIError.needsSQLCipher("backup --new-key") }
        if newKey && isPlaintext { throw CLIError("\(database.file) is not encrypted; use 'encrypt' on the copy instead") }
        let key = try database.key()
        let source = try database.open(key: key)
        defer { try? source.close() }
        let replacement = try newKey ? KeySource(variable: newKeyVariable, prompt: "New key: ").confirmedKey() : nil
        do {
            var options = Connection.Options()
            if let key { options = try options.keyed(with: key) }
            var bar = ProgressBar(label: "backup")
            try source.backup(to: destination, destinationOptions: options, pagesPerStep: 256) {
                bar.update(done: $0.copiedPages, total: $0.totalPages)
            }
            bar.finish()
            if let replacement {
                options.mode = .readWrite
                let copy = try Connection(path: destination, options: options)
                defer { try? copy.close() }
                try copy.changeEncryptionKey(to: replacement)
            }
        } catch {
            throw CLIError.oneLine(error)
        }
        print("backed up \(database.file) to \(destination)" + (newKey ? " (new key)" : ""))
    }
}
