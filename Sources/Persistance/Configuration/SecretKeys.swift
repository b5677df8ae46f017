import Foundation
import Logging

/// A database's encryption keys, oldest first and newest last, and how a file is opened
/// with them: new files get the newest key, files keyed with an older key are re-keyed to
/// the newest, plaintext files are encrypted in place.
///
/// Keys are handed to SQLCipher as their UTF-8 bytes (`sqlite3_key`); they never appear in
/// SQL text, error messages or logs.
struct SecretKeys: Sendable {
    /// Places where a test can make a key change fail, to check what is left behind.
    enum Checkpoint: Sendable {
        /// A plaintext file has been exported to its encrypted copy, which is about to replace it.
        case beforeReplacingFile
        /// The file opened with an older key and is about to be re-keyed to the newest.
        case beforeRekey
    }

    /// The keys, oldest first; never empty.
    let keys: [String]
    /// Called at each checkpoint; throwing interrupts the key change there. For tests.
    var interruption: (@Sendable (Checkpoint) throws -> Void)?

    /// The keys of a configuration, or nil when it lists none.
    ///
    /// - Throws: `.encryptionUnavailable` when keys are listed in a build without SQLCipher;
    ///   `.configuration` when a key is empty or contains NUL.
    init?(_ keys: [String]) throws {
        guard !keys.isEmpty else { return nil }
        guard SQLiteEngine.isSQLCipher else { throw DatabaseError.encryptionUnavailable }
        for key in keys {
            try Self.validate(key)
        }
        self.keys = keys
    }

    /// Throws `.configuration` unless `key` is usable; the message never includes the key.
    static func validate(_ key: String) throws {
        guard !key.isEmpty, !key.utf8.contains(0) else {
            throw DatabaseError.configuration("an encryption key is empty or contains a NUL character")
        }
    }

    /// The key new files get and old files are re-keyed to.
    var newest: String { keys[keys.count - 1] }

    /// The order keys are tried in on an encrypted file: the newest, then the others from
    /// newer to older (the file most likely has a recent key), each once.
    var candidates: [String] {
        var seen = Set<String>()
        return keys.reversed().filter { seen.insert($0).inserted }
    }

    /// `options` with `key` applied right after the file opens, before anything reads it.
    static func options(_ options: Connection.Options, keyedWith key: String) -> Connection.Options {
        var keyed = options
        let prepare = options.prepare
        keyed.prepare = { connection in
            try connection.call(.key, with: key)
            try prepare?(connection)
        }
        return keyed
    }

    /// Opens the file at `path` for writing, leaving it encrypted with the newest key. First
    /// removes what an interrupted conversion or creation left beside it.
    ///
    /// - Throws: `.notARegularFile` when `path` is a FIFO, socket, device or directory;
    ///   `.wrongKey` when no key opens an encrypted file (the file is not modified);
    ///   `.rekeyFailed` when re-keying did not take; the errors of opening and exporting.
    /// Logs the plaintext conversion and the key rotation at `info` on `logger` (never a key).
    func openWriter(
        path: String, options: Connection.Options, logger: Logger = DatabaseConfiguration.defaultLogger
    ) throws -> Connection {
        try RegularFile.check(path)  // before reading its first bytes, which blocks on a FIFO
        TemporaryDatabaseFile.removeLeftovers(besides: path)
        switch try FileContent(path: path) {
        case .absent:
            if let created = try createEncrypted(path: path, options: options) { return created }
            try writeFirstPageOfEmptyFile(path: path, vfs: options.vfs)
            return try openRotating(path: path, options: options, logger: logger)
        case .plaintext:
            logger.info("encrypting plaintext database in place")
            try encryptInPlace(path: path, vfs: options.vfs)
            logger.info("encrypted plaintext database with the newest key")
            return try Connection(path: path, options: Self.options(options, keyedWith: newest))
        case .unrecognized:
            return try openRotating(path: path, options: options, logger: logger)
        }
    }

    /// Creates the database at `path`, keyed with the newest key, atomically across processes:
    /// it is built in a temporary file and linked into place durably only if no file is there
    /// yet (`link` never replaces a file). Without that, processes creating the file at once
    /// would each write their own first page (and salt), and all but one would fail.
    /// Returns nil when another process created the file first. On a file system without
    /// hard links the file is created in place.
    private func createEncrypted(path: String, options: Connection.Options) throws -> Connection? {
        let temporary = try TemporaryDatabaseFile(besides: path, permissions: 0o644)
        defer { temporary.removeAndClose() }
        var temporaryOptions = Connection.Options()
        temporaryOptions.mode = .readWrite
        temporaryOptions.vfs = options.vfs
        let connection = try Connection(path: temporary.path, options: Self.options(temporaryOptions, keyedWith: newest))
        do {
            try connection.execute("PRAGMA user_version = 0")  // writes the first page, with the salt
            try connection.close()
        } catch {
            try? connection.close()
            throw error
        }
        if try temporary.linkDurably(at: path) == .exists { return nil }
        temporary.removeAndClose()
        return try Connection(path: path, options: Self.options(options, keyedWith: newest))
    }

    /// Writes the first page (with its salt) of an existing empty file at `path`, keyed with the
    /// newest key, under an exclusive lock on the file, unless another process has written it
    /// meanwhile: processes creating the same database through an empty file (the executor
    /// creates the file to identify it) then all agree on one salt. Opens it through `vfs`.
    private func writeFirstPageOfEmptyFile(path: String, vfs: String?) throws {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { closeDescriptor(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { return }
        defer { flock(descriptor, LOCK_UN) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size == 0 else { return }
        var writable = Connection.Options()
        writable.mode = .readWrite
        writable.vfs = vfs
        let connection = try Connection(path: path, options: Self.options(writable, keyedWith: newest))
        defer { try? connection.close() }
        try connection.execute("PRAGMA user_version = 0")
    }

    /// Tries each candidate key; the first that opens the file wins and the file is
    /// re-keyed to the newest key before the connection is returned.
    private func openRotating(path: String, options: Connection.Options, logger: Logger) throws -> Connection {
        for key in candidates {
            let connection: Connection
            do {
                connection = try Connection(path: path, options: Self.options(options, keyedWith: key))
            } catch ResultCode.notADatabase {
                continue
            }
            if key == newest { return connection }
            logger.info("re-keying database to the newest key", metadata: [
                "opened_with_key": "\((keys.firstIndex(of: key) ?? 0) + 1) of \(keys.count)"
            ])
            do {
                try interruption?(.beforeRekey)
                try connection.call(.rekey, with: newest)
                try connection.close()
            } catch {
                try? connection.close()
                throw error
            }
            do {
                return try Connection(path: path, options: Self.options(options, keyedWith: newest))
            } catch ResultCode.notADatabase {
                throw DatabaseError(
                    kind: .rekeyFailed,
                    message: "re-keying \(path) to the newest key did not take effect; it still opens with an older key")
            }
        }
        throw DatabaseError(
            kind: .wrongKey,
            message: "none of the \(keys.count) configured keys opens \(path) (or it is not a database); "
                + "the file was left unchanged")
    }

    /// What the first bytes of a database file say about it.
    private enum FileContent {
        /// No file, or an empty one: a new database.
        case absent
        /// A plaintext SQLite database.
        case plaintext
        /// Anything else: an encrypted database (or not a database at all).
        case unrecognized

        private static let sqliteHeader = Array("SQLite format 3\0".utf8)

        init(path: String) throws {
            guard FileManager.default.fileExists(atPath: path) else {
                self = .absent
                return
            }
            guard let file = FileHandle(forReadingAtPath: path) else {
                throw DatabaseError.fileSystem("cannot read \(path)")
            }
            defer { try? file.close() }
            let header = try file.read(upToCount: Self.sqliteHeader.count) ?? Data()
            if header.isEmpty {
                self = .absent
            } else {
                self = Array(header) == Self.sqliteHeader ? .plaintext : .unrecognized
            }
        }
    }
}
