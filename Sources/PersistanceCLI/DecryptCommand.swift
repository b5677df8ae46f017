import ArgumentParser
import Persistance

/// `persistance decrypt FILE DEST`: a plaintext copy of an encrypted database.
struct DecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Write a plaintext copy of an encrypted database to DEST (a new file, mode 0600).")

    @OptionGroup var database: DatabaseFileOptions

    @Argument(help: "The new plaintext file; it must not exist.", completion: .file())
    var destination: String

    func run() throws {
        guard SQLiteEngine.isSQLCipher else { throw CLIError.needsSQLCipher("decrypt") }
        guard try !database.isPlaintext() else { throw CLIError("\(database.file) is not encrypted") }
        // Read-write: SQLite attaches the export's file read-only to a read-only connection.
        // Nothing writes to the source.
        let conn = try database.open(readOnly: false)
        defer { try? conn.close() }
        do {
            try conn.exportPlaintext(to: destination)
        } catch {
            throw CLIError.oneLine(error)
        }
        print("wrote a plaintext copy of \(database.file) to \(destination)")
    }
}
