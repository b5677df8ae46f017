import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Re-encrypts the whole database with `newKey`, in place and in one transaction
    /// (SQLCipher's `sqlite3_rekey`). Configured keys are rotated automatically on open; this
    /// is for tools and explicit key changes.
    ///
    /// Call it outside any transaction, with no statement running, while no other connection
    /// uses the file (those would still read with the old key). For a file database the
    /// change is verified by opening the file again with the new key; if that fails the file
    /// still has its old key and this connection must be closed.
    ///
    /// - Throws: `.encryptionUnavailable` without SQLCipher; `.configuration` for an empty
    ///   key; `.misuse` inside a transaction; `.rekeyFailed` when the key did not change
    ///   (for example because the database is not encrypted).
    public func changeEncryptionKey(to newKey: String) throws {
        guard SQLiteEngine.isSQLCipher else { throw DatabaseError.encryptionUnavailable }
        try SecretKeys.validate(newKey)
        guard !isInTransaction else {
            throw DatabaseError.misuse("the encryption key cannot change inside a transaction")
        }
        try call(.rekey, with: newKey)
        guard path != ":memory:", !path.isEmpty else { return }
        var options = Options()
        options.mode = .readOnly
        options.vfs = self.options.vfs
        do {
            try Connection(path: path, options: SecretKeys.options(options, keyedWith: newKey)).close()
        } catch ResultCode.notADatabase {
            throw DatabaseError(
                kind: .rekeyFailed,
                message: "the key of \(path) did not change (is the database encrypted?); close this connection")
        }
    }

    /// Writes a decrypted copy of the database to a new file at `destination`
    /// (SQLCipher's `sqlcipher_export`), for tools that remove encryption. The copy is
    /// readable and writable by its owner only (mode 0600, whatever the umask, and no more
    /// than the database file's mode).
    ///
    /// The copy is built in a private temporary file beside `destination` (hidden, uniquely
    /// named, mode 0600) and linked into place durably only once complete, so no partial
    /// plaintext is ever at `destination`; what a killed export left there is removed by the
    /// next export to `destination`.
    ///
    /// - Throws: `.encryptionUnavailable` without SQLCipher; `.unsafeDestination` when
    ///   `destination` is this database or its journal, WAL or shared-memory file; `.misuse`
    ///   when `destination` already exists; `.fileSystem` when it cannot be created; SQLite's
    ///   errors while exporting (then nothing is left at `destination`).
    public func exportPlaintext(to destination: String) throws {
        guard SQLiteEngine.isSQLCipher else { throw DatabaseError.encryptionUnavailable }
        try CopyDestination.check(destination, copyOf: path)
        let exists = { (path: String) -> Bool in
            var status = stat()
            return lstat(path, &status) == 0
        }
        let existing = DatabaseError.misuse("cannot export to \(destination): the file exists")
        guard !exists(destination) else { throw existing }
        TemporaryDatabaseFile.removeLeftovers(besides: destination)
        let temporary = try TemporaryDatabaseFile(besides: destination, permissions: 0o600)
        defer { temporary.removeAndClose() }
        try temporary.setPermissions(0o600)  // the umask may have taken bits the owner needs to write the copy
        try export(to: temporary.path, key: "")
        try temporary.setPermissions(0o600 & (TemporaryDatabaseFile.permissions(of: path) ?? 0o600))
        switch try temporary.linkDurably(at: destination) {
        case .linked: return
        case .exists: throw existing
        case .unsupported:
            guard !exists(destination) else { throw existing }
            try temporary.renameDurably(to: destination)
        }
    }

    /// Exports the main database into the existing empty file at `destination`, encrypted
    /// with `key`, or plaintext when `key` is empty. The key is a bound value, never SQL
    /// text. On failure the caller removes the file.
    func export(to destination: String, key: String) throws {
        try attachExport(destination, key: key)
        try exportToAttached()
    }

    /// Attaches the file at `destination` as `persistance_export`, keyed with `key`.
    func attachExport(_ destination: String, key: String) throws {
        let attach = try prepare("ATTACH DATABASE ? AS persistance_export KEY ?")
        try attach.execute([destination, key])
        attach.clearBindings()
    }

    /// Copies the main database into the attached `persistance_export` and detaches it,
    /// reporting a failure with the result code SQLite gave it.
    func exportToAttached() throws {
        do {
            do {
                try StatementTracer.suspended(on: self) { try execute("SELECT sqlcipher_export('persistance_export')") }
            } catch let error as DatabaseError {
                throw error.withResultCodeOfItsMessage()
            }
            let userVersion = try fetchOne(Int.self, "PRAGMA main.user_version") ?? 0
            try execute("PRAGMA persistance_export.user_version = \(userVersion)")
            try execute("DETACH DATABASE persistance_export")
        } catch {
            try? execute("DETACH DATABASE persistance_export")
            throw error
        }
    }

    /// A SQLCipher function that takes a key.
    enum KeyFunction: String {
        /// `sqlite3_key`: keys a connection that has not read its file yet.
        case key = "sqlite3_key"
        /// `sqlite3_rekey`: re-encrypts the database with the key. SQLCipher 3 reports
        /// success even when the rewrite fails, so callers verify by opening the file with
        /// the new key.
        case rekey = "sqlite3_rekey"
    }

    /// Calls `function` with the key's UTF-8 bytes and their count; the key never becomes SQL.
    func call(_ function: KeyFunction, with key: String) throws {
        #if SQLCipher
        let handle = try sqliteHandle()
        let bytes = Array(key.utf8)
        let code = bytes.withUnsafeBytes { buffer in
            let count = Int32(clamping: buffer.count)
            switch function {
            case .key: return sqlite3_key(handle, buffer.baseAddress, count)
            case .rekey: return sqlite3_rekey(handle, buffer.baseAddress, count)
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(
                kind: .sqlite, extendedResultCode: ResultCode(rawValue: code), message: "\(function.rawValue) failed")
        }
        #else
        throw DatabaseError.encryptionUnavailable
        #endif
    }
}

extension DatabaseError {
    /// The error with the result code its message is SQLite's description of.
    /// `sqlcipher_export` reports every failure as `SQLITE_ERROR` (1) with the message of the
    /// real code ("database or disk is full"), so `catch ResultCode.full` would miss it. The
    /// extended code is the primary one: the export does not report more.
    func withResultCodeOfItsMessage() -> DatabaseError {
        guard extendedResultCode == .error else { return self }
        for code in Int32(2)...Int32(28) where String(cString: sqlite3_errstr(code)) == message {
            var error = self
            error.extendedResultCode = ResultCode(rawValue: code)
            return error
        }
        return self
    }
}

/// Closes a file descriptor (inside `Connection`, `close` names the connection's method).
func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
