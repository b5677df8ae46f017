import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// One online backup: copies a source connection's database into a new file with
/// `sqlite3_backup_init`, `sqlite3_backup_step` and `sqlite3_backup_finish`, in steps.
///
/// The copy is written to a uniquely named temporary file beside the destination and renamed
/// over it only when complete and checked, so the destination never holds a partial copy.
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
        let target = URL(fileURLWithPath: destination)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).persistance-backup-\(UUID().uuidString).tmp").path
        do {
            try copy(from: source, to: temporary, isCancelled: isCancelled, progress: progress)
            guard rename(temporary, destination) == 0 else {
                throw DatabaseError.fileSystem(
                    "cannot move the backup into \(destination): \(String(cString: strerror(errno)))")
            }
        } catch {
            for leftover in [temporary, temporary + "-journal", temporary + "-wal", temporary + "-shm"] {
                try? FileManager.default.removeItem(atPath: leftover)
            }
            throw error
        }
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
