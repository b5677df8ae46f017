extension Database {
    /// The changes every transaction committed through this database makes to `tables`
    /// (any table when nil), row by row, in commit order, from the moment this is called:
    /// writes through tables, queries, raw SQL and document collections alike.
    ///
    /// Nothing is reported for a transaction that rolls back, nor for the work of a
    /// savepoint that rolls back. A commit by another connection or process to the same
    /// file is reported as `.external`, after a later write (writes look for one at most once
    /// a millisecond) or within about half a second.
    /// Rows of `WITHOUT ROWID` tables are not reported (SQLite's update hook skips them).
    ///
    /// ```swift
    /// for await change in db.changes(in: ["player"]) {
    ///     if case .row(let row) = change { print(row.kind, row.rowID) }
    /// }
    /// ```
    ///
    /// The stream ends when its consuming task is cancelled, when the loop stops, or when
    /// the database is released or closed; until then the writer records changes (a stream
    /// that is made but never iterated keeps that cost until the database goes away).
    /// - Parameter tables: table names, matched without regard to case.
    public func changes(in tables: [String]? = nil) -> AsyncStream<DatabaseChange> {
        let watched = tables.map { Set($0.map { $0.lowercased() }) }
        let (stream, continuation) = AsyncStream.makeStream(of: DatabaseChange.self)
        let subscription = changeTracker.subscribe(ChangeTracker.Subscriber(
            receive: { batch in
                if batch.isExternal {
                    continuation.yield(.external)
                    return
                }
                for row in batch.rows where watched?.contains(row.table.lowercased()) ?? true {
                    continuation.yield(.row(row))
                }
            },
            finish: { continuation.finish() }))
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}
