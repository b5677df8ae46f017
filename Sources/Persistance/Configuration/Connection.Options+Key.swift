extension Connection.Options {
    /// These options with an SQLCipher key applied as the file opens, before anything reads
    /// it: for tools that open one encrypted file directly, with no key rotation, no
    /// plaintext conversion and no journal-mode change (`DatabaseConfiguration` does those).
    ///
    /// - Throws: `.encryptionUnavailable` without SQLCipher; `.configuration` for an empty
    ///   key or one containing NUL. A wrong key fails when the connection opens (`notADatabase`).
    public func keyed(with key: String) throws -> Connection.Options {
        guard SQLiteEngine.isSQLCipher else { throw DatabaseError.encryptionUnavailable }
        try SecretKeys.validate(key)
        return SecretKeys.options(self, keyedWith: key)
    }
}
