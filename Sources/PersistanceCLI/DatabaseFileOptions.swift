import ArgumentParser
import Foundation
import Persistance

/// The database file a subcommand works on, and where its key comes from.
struct DatabaseFileOptions: ParsableArguments {
    @Argument(help: "The database file.", completion: .file())
    var file: String

    @Option(name: .customLong("key-env"), help: "The environment variable holding the file's key.")
    var keyVariable = KeySource.defaultVariable

    /// Where the file's key comes from.
    var keySource: KeySource { KeySource(variable: keyVariable, prompt: "Key for \(file): ") }

    /// Whether the file starts like a plaintext SQLite database (else it is encrypted, or no database).
    /// Every subcommand asks this first: it refuses anything but a regular file at once.
    func isPlaintext() throws -> Bool {
        try checkRegularFile()
        guard let handle = FileHandle(forReadingAtPath: file) else { throw CLIError("\(file): cannot be read") }
        defer { try? handle.close() }
        let header = try handle.read(upToCount: 16) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }

    /// Throws unless `file` is a regular file (following symbolic links): reading a FIFO would
    /// wait forever for a writer, and a socket, device or directory is no database.
    private func checkRegularFile() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw CLIError("\(file): no such file") }
        do {
            try RegularFile.check(file)
        } catch {
            throw CLIError.oneLine(error)
        }
    }

    /// The file's key: nil for a plaintext file, else from the environment or a prompt.
    func key() throws -> String? {
        guard try !isPlaintext() else { return nil }
        guard SQLiteEngine.isSQLCipher else {
            throw CLIError("\(file) is not a plaintext SQLite database; if it is encrypted, "
                + "use a build of the tool with the SQLCipher trait")
        }
        return try keySource.requiredKey()
    }

    /// Options opening the file as it is, keyed with `key`: never created, converted,
    /// re-keyed or switched to WAL.
    func options(readOnly: Bool = true, key: String?) throws -> Connection.Options {
        var options = Connection.Options()
        options.mode = readOnly ? .readOnly : .readWrite
        return try key.map(options.keyed(with:)) ?? options
    }

    /// Read-only options for the file, asking for its key when it is encrypted.
    func options() throws -> Connection.Options {
        try options(key: try key())
    }

    /// A connection to the file as it is, keyed with `key`.
    func open(readOnly: Bool = true, key: String?) throws -> Connection {
        do {
            return try Connection(path: file, options: try options(readOnly: readOnly, key: key))
        } catch {
            throw CLIError.oneLine(error)
        }
    }

    /// A connection to the file as it is, asking for its key when it is encrypted.
    func open(readOnly: Bool = true) throws -> Connection {
        try open(readOnly: readOnly, key: try key())
    }
}
