import Persistance

/// A failure the tool reports as one line on standard error, exiting with status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The error for a subcommand that needs SQLCipher in a build without it.
    static func needsSQLCipher(_ command: String) -> CLIError {
        CLIError("'\(command)' needs encryption, and this build links plain SQLite \(SQLiteEngine.version); "
            + "build the tool with the SQLCipher trait: swift build --traits SQLCipher --product persistance")
    }

    /// `error` as one line: a `DatabaseError` without its SQL, anything else as it describes itself.
    static func oneLine(_ error: any Error) -> CLIError {
        if let error = error as? CLIError { return error }
        guard let error = error as? DatabaseError else { return CLIError("\(error)") }
        var text = error.message
        if error.kind == .wrongKey || error.resultCode == .notADatabase {
            text = "the key does not open it (wrong key), or it is not a database"
        }
        if let code = error.extendedResultCode { text += " (SQLite code \(code.rawValue))" }
        return CLIError(text)
    }
}
