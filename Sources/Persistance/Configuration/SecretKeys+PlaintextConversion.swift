import Foundation

extension SecretKeys {
    /// Encrypts the plaintext database at `path` with the newest key, in place, opening it
    /// through `vfs` (nil: the default VFS).
    ///
    /// When `path` is a symbolic link, the file it leads to is encrypted (the link is kept).
    /// The database is exported (`sqlcipher_export`) to a locked temporary file in the same
    /// directory (see ``TemporaryDatabaseFile``), which gets the original's mode and owner and
    /// then atomically and durably replaces it (`rename`, with the file and its directory
    /// synced). Until the rename the original is untouched; if anything fails the temporary
    /// file is removed, and if the process dies a later open removes it. The original must
    /// not be open elsewhere: its connection is closed (checkpointing and removing its WAL)
    /// before the rename, and a WAL file left behind by another connection stops the
    /// conversion.
    ///
    /// - Throws: `.fileSystem` before anything changes when the file or its directory may not
    ///   be written, or when the file has other hard links (they would keep the plaintext);
    ///   SQLite's errors while exporting, with their real result codes.
    func encryptInPlace(path link: String, vfs: String? = nil) throws {
        let path = try LinkTarget.of(link)
        try Self.checkReplaceable(path)
        let temporary = try TemporaryDatabaseFile(besides: path, permissions: 0o600)
        defer { temporary.removeAndClose() }
        var options = Connection.Options()
        options.mode = .readWrite
        options.vfs = vfs
        let plaintext = try Connection(path: path, options: options)
        do {
            try plaintext.export(to: temporary.path, key: newest)
            try plaintext.close()
        } catch {
            try? plaintext.close()
            throw error
        }
        guard !Set([link, path]).contains(where: { FileManager.default.fileExists(atPath: $0 + "-wal") }) else {
            throw DatabaseError.fileSystem("cannot encrypt \(path) in place while another connection has it open")
        }
        try temporary.adoptOwnershipAndPermissions(of: path)
        try interruption?(.beforeReplacingFile)
        do {
            try temporary.renameDurably(to: path)
        } catch let error as DatabaseError {
            throw error.during("cannot replace \(path) with its encrypted copy")
        }
    }

    /// Throws `.fileSystem` unless this process may replace the file at `path` and leave no
    /// plaintext behind: write the file and its directory, and no other hard link to it.
    private static func checkReplaceable(_ path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        for (item, what) in [(path, "the file"), (directory, "its directory")] where !isWritable(item) {
            throw DatabaseError.fileSystem(
                "cannot encrypt \(path) in place: \(what) is read-only for this process; the file was left unchanged")
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_nlink > 1 {
            throw DatabaseError.fileSystem(
                "cannot encrypt \(path) in place: it has \(status.st_nlink) hard links, and the others would keep "
                    + "the plaintext; the file was left unchanged")
        }
    }

    /// Whether this process may write `path`. Root passes `access(2)` for any file, so for
    /// root the permission bits must also grant someone write access: a file or directory
    /// made read-only (0444, 0555) is left alone, as it is for everyone else.
    private static func isWritable(_ path: String) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        guard geteuid() == 0 else { return true }
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & 0o222 != 0
    }
}
