import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// One online backup: copies a source connection's database into a new file with
/// `sqlite3_backup_init`, `sqlite3_backup_step` and `sqlite3_backup_finish`, in steps.
///
/// The destination may not be the source or one of its companion files (see
/// ``CopyDestination``). The copy is written to a locked temporary file beside the
/// destination (a ``TemporaryDatabaseFile``, with the source's permission bits) and renamed
/// over it durably only when complete and checked, so the destination never holds a partial
/// copy and is never more readable than the source. What a killed backup left beside the
/// destination is removed by the next backup to it (or open of it).
/// The source is read in one read transaction: in WAL mode it sees one snapshot from start
/// to end while writers go on, so concurrent writes neither block nor restart the backup,
/// and the copy is the database as it was when the backup started.
struct OnlineBackup {
    let destination: String
    let pagesPerStep: Int32
    /// The destination connection's options: keyed like the source, so an encrypted
    /// database's copy is encrypted with the same key.
    let destinationOptions: Connection.Options

    /// Runs the backup from `source`, reporting progress after each step; stops with
    /// `CancellationError` when `isCancelled` answers true between steps.
    func run(from source: Connection, isCancelled: () -> Bool, progress: (BackupProgress) -> Void) throws {
        try CopyDestination.check(destination, copyOf: source.path)
        TemporaryDatabaseFile.removeLeftovers(besides: destination)
        let temporary = try TemporaryDatabaseFile(besides: destination, permissions: 0o644)
        defer { temporary.removeAndClose() }
        if let mode = TemporaryDatabaseFile.permissions(of: source.path) {
            try temporary.setPermissions(mode)
        }
        try copy(from: source, to: temporary.path, isCancelled: isCancelled, progress: progress)
        try temporary.renameDurably(to: destination)
    }

    private func copy(
        from source: Connection, to path: String, isCancelled: () -> Bool, progress: (BackupProgress) -> Void
    ) throws {
        let copy = try Connection(path: path, options: destinationOptions)
        defer { try? copy.close() }
        try source.transaction(.deferred) {
            try source.execute("SELECT count(*) FROM sqlite_master")  // the snapshot starts here
            let destinationHandle = try copy.sqliteHandle()
            guard let backup = sqlite3_backup_init(destinationHandle, "main", try source.sqliteHandle(), "main") else {
                throw copy.lastError(code: sqlite3_errcode(destinationHandle), sql: nil)
            }
            var code = SQLITE_OK
            while code == SQLITE_OK {
                if isCancelled() {
                    sqlite3_backup_finish(backup)
                    throw CancellationError()
                }
                code = sqlite3_backup_step(backup, pagesPerStep)
                let total = Int(sqlite3_backup_pagecount(backup))
                if code == SQLITE_OK || code == SQLITE_DONE {
                    progress(BackupProgress(copiedPages: total - Int(sqlite3_backup_remaining(backup)), totalPages: total))
                }
            }
            let finish = sqlite3_backup_finish(backup)
            guard code == SQLITE_DONE, finish == SQLITE_OK else {
                throw copy.lastError(code: code == SQLITE_DONE ? finish : code, sql: nil)
            }
        }
        let report = try copy.checkIntegrity(.quick)
        guard report.isOK else {
            throw DatabaseError(kind: .sqlite, extendedResultCode: .corrupt, message: "the backup copy fails its integrity check: \(report)")
        }
    }
}
