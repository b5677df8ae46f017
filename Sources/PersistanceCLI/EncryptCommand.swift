import ArgumentParser
import Persistance

/// `persistance encrypt FILE`: a plaintext database encrypted in place.
struct EncryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a plaintext database in place with a key (from --key-env, or asked for twice).",
        discussion: "The file is replaced atomically by its encrypted copy, keeping its mode; stop applications using it first.")

    @OptionGroup var database: DatabaseFileOptions

    func run() throws {
        guard SQLiteEngine.isSQLCipher else { throw CLIError.needsSQLCipher("encrypt") }
        guard try database.isPlaintext() else { throw CLIError("\(database.file) is already encrypted (or not a database)") }
        let key = try database.keySource.confirmedKey()
        do {
            var configuration = DatabaseConfiguration(path: database.file)
            configuration.secretKeys = [key]
            try configuration.openWriter().close()
        } catch {
            throw CLIError.oneLine(error)
        }
        print("encrypted \(database.file)")
    }
}
