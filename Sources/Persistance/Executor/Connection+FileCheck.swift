#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Opens a reader of `configuration`'s file, provided that the file at its path is still
    /// `writerFile`, the one the writer opened; throws `DatabaseError.Kind.databaseFileMoved`
    /// otherwise.
    ///
    /// A reader that opened a file put in place of the writer's would share the writer's
    /// write-ahead log and shared memory, which are named after the path, and mix two
    /// databases' pages. The path is checked before and after opening (a key derivation can
    /// take a while).
    static func openReader(_ configuration: DatabaseConfiguration, ofFile writerFile: DatabaseFileIdentity?) throws -> Connection {
        try checkFile(at: configuration.path, is: writerFile)
        let connection = try configuration.openReader()
        do {
            try checkFile(at: configuration.path, is: writerFile)
        } catch {
            try? connection.closeHandle()
            throw error
        }
        return connection
    }

    private static func checkFile(at path: String, is writerFile: DatabaseFileIdentity?) throws {
        guard let writerFile, DatabaseFileIdentity(path: path) != writerFile else { return }
        throw DatabaseError(
            kind: .databaseFileMoved,
            message: "the database file \(path) was deleted, renamed or replaced while open; "
                + "no new reader opens the file that has its path now")
    }

    /// Throws `DatabaseError.Kind.databaseFileMoved` when the connection's database file is
    /// no longer at its path: deleted, renamed, or replaced by another file since it opened.
    ///
    /// Such a connection still writes, into a file nobody will open again, so its commits
    /// would be lost. The check costs one `stat` of the path (SQLite's
    /// `SQLITE_FCNTL_HAS_MOVED`, which compares the inode it opened with the one now at the
    /// path). An in-memory database never moves.
    func checkFileNotMoved() throws {
        guard Self.fileHasMoved(try sqliteHandle()) else { return }
        throw DatabaseError(
            kind: .databaseFileMoved,
            message: "the database file \(path) was deleted, renamed or replaced while open; "
                + "the transaction was rolled back")
    }

    /// Before the connection closes: when its database file was deleted, renamed or replaced
    /// while open, copies everything its write-ahead log holds into the file (wherever it is
    /// now) and empties the log.
    ///
    /// SQLite does not checkpoint a moved file at close, so without this the log stays at
    /// `<path>-wal` beside whatever file has the path now, and the next open of the path
    /// replays the old file's pages over it; a renamed file would also miss the
    /// transactions that the log held. Throws `DatabaseError.Kind.databaseFileMoved` when
    /// the log could not be emptied (another process is still reading the moved file). A
    /// read-only connection leaves that to the writer.
    func checkpointIfMoved() throws {
        guard options.mode != .readOnly, let handle = try? sqliteHandle(), Self.fileHasMoved(handle) else { return }
        var logFrames: Int32 = 0
        var checkpointedFrames: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointedFrames)
        guard code != SQLITE_OK else { return }
        throw DatabaseError(
            kind: .databaseFileMoved, extendedResultCode: ResultCode(rawValue: code),
            message: "the database file \(path) was deleted, renamed or replaced while open, and its "
                + "write-ahead log could not be emptied into it (\(String(cString: sqlite3_errmsg(handle)))); "
                + "\(path)-wal still holds the moved file's last transactions")
    }

    /// Whether SQLite finds the main database file of `handle` no longer at its path
    /// (`SQLITE_FCNTL_HAS_MOVED`: one `stat` of the path against the inode it opened).
    private static func fileHasMoved(_ handle: OpaquePointer) -> Bool {
        var hasMoved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &hasMoved) == SQLITE_OK && hasMoved != 0
    }
}
