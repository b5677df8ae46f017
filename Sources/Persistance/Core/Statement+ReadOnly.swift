#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Statement {
    /// Whether running the statement leaves the database files as they are
    /// (`sqlite3_stmt_readonly`): true for queries, and also for `BEGIN`, `COMMIT`, `ATTACH`,
    /// `DETACH` and, on recent SQLite, `VACUUM INTO`, which change no content of the open
    /// database but may create other files.
    public var isReadOnly: Bool {
        guard let handle else { return true }
        return sqlite3_stmt_readonly(handle) != 0
    }
}
