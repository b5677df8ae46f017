extension DatabaseError.Kind {
    /// A database name, a directory, a path or a key answered by a target is not valid.
    public static let configuration = DatabaseError.Kind(rawValue: "configuration")
    /// A file operation outside SQLite failed: creating the database's directory, replacing
    /// a file with its encrypted copy, or a file that another connection still has open.
    public static let fileSystem = DatabaseError.Kind(rawValue: "fileSystem")
    /// Changing the encryption key did not take effect; the file still opens with the old key.
    public static let rekeyFailed = DatabaseError.Kind(rawValue: "rekeyFailed")
}

extension DatabaseError {
    static func configuration(_ message: String) -> DatabaseError {
        DatabaseError(kind: .configuration, message: message)
    }

    static func fileSystem(_ message: String) -> DatabaseError {
        DatabaseError(kind: .fileSystem, message: message)
    }

    static var encryptionUnavailable: DatabaseError {
        DatabaseError(
            kind: .encryptionUnavailable,
            message: "encryption keys need SQLCipher; this build links plain SQLite (build with --traits SQLCipher)")
    }

    /// The same error, its message prefixed with what was being done (`"migrating game.sqlite"`).
    func during(_ activity: String) -> DatabaseError {
        var error = self
        error.message = "\(activity): \(message)"
        return error
    }
}
