import Foundation

extension Database {
    /// Copies the database into the file at `destination` while it stays in use, reporting
    /// progress after each step of `pagesPerStep` pages.
    ///
    /// ```swift
    /// for try await progress in db.backup(to: "/backups/game.sqlite") {
    ///     print("\(Int(progress.fractionCompleted * 100)) %")
    /// }
    /// ```
    ///
    /// The backup runs on its own thread and its own read-only connection (SQLite's online
    /// backup API), in one read transaction: writes go on meanwhile, and the copy is the
    /// database as it was when the backup started. The copy is written beside `destination`,
    /// with the database file's permission bits, and moved into place durably (synced, renamed,
    /// directory synced) only once complete and passing a quick integrity check, so
    /// `destination` (replaced if it exists) never holds a partial copy. What a killed backup
    /// left beside `destination` is removed by the next backup to it. An encrypted
    /// database's copy is encrypted with its newest key. Ending the iteration early cancels
    /// the backup at its next step (the sequence buffers, so a backup may have finished
    /// already); a cancelled backup leaves nothing behind.
    ///
    /// An in-memory database is copied on its single connection, in one read block.
    /// - Throws (from the sequence): `.misuse` when `pagesPerStep` is below 1;
    ///   `.unsafeDestination` when `destination` is the database itself or its journal, WAL
    ///   or shared-memory file, by any path or link (nothing is written); `.databaseClosed`;
    ///   SQLite's errors (a destination directory that does not exist is `SQLITE_CANTOPEN`).
    public func backup(to destination: String, pagesPerStep: Int = 1024) -> AsyncThrowingStream<BackupProgress, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: BackupProgress.self)
        let isCancelled = Guarded(false)
        continuation.onTermination = { _ in isCancelled.withLock { $0 = true } }
        let thread = Thread { [self] in
            do {
                let backup = try onlineBackup(to: destination, pagesPerStep: pagesPerStep)
                let report = { (progress: BackupProgress) in _ = continuation.yield(progress) }
                let cancelled = { isCancelled.withLock { $0 } }
                if readers == nil {
                    try readSync { try backup.run(from: $0, isCancelled: cancelled, progress: report) }
                } else {
                    let source = try configuration.openReader()
                    defer { try? source.close() }
                    try backup.run(from: source, isCancelled: cancelled, progress: report)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "backup \(URL(fileURLWithPath: path).lastPathComponent)"
        thread.start()
        return stream
    }

    private func onlineBackup(to destination: String, pagesPerStep: Int) throws -> OnlineBackup {
        guard pagesPerStep >= 1 else {
            throw DatabaseError.misuse("a backup step copies at least 1 page, \(pagesPerStep) requested")
        }
        guard !isClosed else { throw DatabaseError.databaseClosed(path) }
        var options = Connection.Options()
        options.vfs = configuration.connectionOptions.vfs
        if let keys = try SecretKeys(configuration.secretKeys) {
            options = SecretKeys.options(options, keyedWith: keys.newest)
        }
        return OnlineBackup(destination: destination, pagesPerStep: Int32(clamping: pagesPerStep), destinationOptions: options)
    }
}
