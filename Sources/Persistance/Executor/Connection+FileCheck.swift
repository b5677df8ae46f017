#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Throws `DatabaseError.Kind.databaseFileMoved` when the connection's database file is
    /// no longer at its path: deleted, renamed, or replaced by another file since it opened.
    ///
    /// Such a connection still writes, into a file nobody will open again, so its commits
    /// would be lost. The check costs one `stat` of the path (SQLite's
    /// `SQLITE_FCNTL_HAS_MOVED`, which compares the inode it opened with the one now at the
    /// path). An in-memory database never moves.
    func checkFileNotMoved() throws {
        let handle = try sqliteHandle()
        var hasMoved: Int32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &hasMoved) == SQLITE_OK, hasMoved != 0 else {
            return
        }
        throw DatabaseError(
            kind: .databaseFileMoved,
            message: "the database file \(path) was deleted, renamed or replaced while open; "
                + "the transaction was rolled back")
    }
}
