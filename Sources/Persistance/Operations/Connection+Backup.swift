extension Connection {
    /// Copies this connection's database into the file at `destination`, in steps of
    /// `pagesPerStep` pages, calling `progress` after each: the synchronous form of
    /// `Database.backup(to:pagesPerStep:)`, for tools that hold one connection.
    ///
    /// The copy is written beside `destination`, with the source file's permission bits, and
    /// moved into place durably only once complete and passing a quick integrity check. An
    /// encrypted database must be copied into a destination keyed with the same key: pass
    /// `destinationOptions` keyed with it (`Connection.Options().keyed(with:)`).
    /// - Throws: `.misuse` when `pagesPerStep` is below 1; `.unsafeDestination` when
    ///   `destination` is this database or its journal, WAL or shared-memory file (nothing is
    ///   written); SQLite's errors.
    public func backup(
        to destination: String, destinationOptions: Connection.Options = Connection.Options(), pagesPerStep: Int = 1024,
        progress: (BackupProgress) -> Void = { _ in }
    ) throws {
        guard pagesPerStep >= 1 else {
            throw DatabaseError.misuse("a backup step copies at least 1 page, \(pagesPerStep) requested")
        }
        let backup = OnlineBackup(
            destination: destination, pagesPerStep: Int32(clamping: pagesPerStep), destinationOptions: destinationOptions)
        try backup.run(from: self, isCancelled: { false }, progress: progress)
    }
}
