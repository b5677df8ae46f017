extension DatabaseConfiguration {
    /// Throws the errors that fail the writer's open whatever the file holds, before anything
    /// is written: the open-database registry creates a missing file (and its directories) to
    /// identify it, so a failed open would otherwise leave them behind. These are keys in a
    /// build without SQLCipher (`.encryptionUnavailable`) or unusable keys (`.configuration`),
    /// and a path that names a FIFO, socket, device or directory (`.notARegularFile`).
    func checkBeforeCreatingFile() throws {
        guard !isInMemory else { return }
        do {
            _ = try SecretKeys(secretKeys)
            try RegularFile.check(path)
        } catch let error as DatabaseError {
            throw error.during("opening \(name)")
        }
    }
}
