/// Portable observation on SQLite: the value observations of ``AsyncDatabase`` run on the
/// database's own scheduler (see `ValueObservation`), and the table change stream is made
/// from the row-level one's announcements.
extension Database {
    /// Observes the value the portable `fetch` returns: the sequence yields it at once, then
    /// again after each commit that changed a table `fetch` read. See ``AsyncValueObservation``.
    ///
    /// ```swift
    /// for try await count in db.observe({ tx in try await Player.table.count(in: tx) }) {
    ///     print("players:", count)
    /// }
    /// ```
    ///
    /// The fetch runs exactly as a synchronous observation's (`observe(_:)` with a
    /// ``Connection``): in a round of the database's scheduler, on a reader, in a snapshot
    /// between two commits, its reads recorded by SQLite's authorizer; the reader's thread
    /// waits while it runs, so await only the transaction's work in it. A portable `read` or
    /// `write` of this database from the fetch throws `DatabaseError.Kind.reentrantAccess`.
    public func observe<Value: Sendable>(
        _ fetch: nonisolated(nonsending) @escaping @Sendable (SQLiteTransaction) async throws -> Value
    ) -> AsyncValueObservation<Value> {
        portableObservation(sharing: nil, fetch)
    }

    /// Observes the value the portable `fetch` returns, like the `observe(_:)` above,
    /// sharing one fetch per commit with every other running observation of this database made
    /// with an equal `key` and the same value type (synchronous ones too). The fetch of the
    /// observation that started first is the one that runs, so observations of one key must
    /// fetch the same thing. One that joins a running observation first receives its latest value.
    public func observe<Value: Sendable>(
        sharing key: some Hashable & Sendable, _ fetch: nonisolated(nonsending) @escaping @Sendable (SQLiteTransaction) async throws -> Value
    ) -> AsyncValueObservation<Value> {
        portableObservation(sharing: key, fetch)
    }

    /// A value observation whose fetch runs `fetch` on the scheduler's connection (see
    /// `SQLiteTransaction.runBlocking`).
    private func portableObservation<Value: Sendable>(
        sharing key: (any Hashable & Sendable)?, _ fetch: nonisolated(nonsending) @escaping @Sendable (SQLiteTransaction) async throws -> Value
    ) -> AsyncValueObservation<Value> {
        let observation = ValueObservation(
            database: self,
            fetch: { [executorID] connection in try SQLiteTransaction.runBlocking(fetch, on: connection, of: executorID) },
            sharingKey: key)
        return AsyncValueObservation { isDuplicate in
            var observation = observation
            observation.isDuplicate = isDuplicate
            return observation.makeAsyncIterator()
        }
    }

    /// The tables of `tables` that each transaction committed through this database changes:
    /// `.table(name)` once per table and transaction, in commit order, from the moment this
    /// returns; `.external` for a commit by another connection or process to the same file
    /// (noticed as `changes(in:)` notices it), whose tables are unknown. The portable change
    /// stream of ``AsyncDatabase/tableChanges(in:)``; `changes(in:)` tells the rows too.
    ///
    /// Nothing is announced for a transaction that rolls back, nor for the work of a savepoint
    /// that rolls back, nor for a statement that changed no row.
    ///
    /// The stream ends when its consuming task is cancelled, when the loop stops, or when the
    /// database is closed.
    /// - Parameter tables: names of tables of the database, matched without regard to case;
    ///   `.table` names them as the schema spells them.
    /// - Throws: `DatabaseError.Kind.invalidArguments` for no table, or a name that is not a
    ///   table's (a view, SQLite's own tables, nothing); `DatabaseError.Kind.databaseClosed`.
    public func tableChanges(in tables: [String]) async throws -> AsyncStream<DatabaseChange> {
        guard !tables.isEmpty else {
            throw DatabaseError(kind: .invalidArguments, message: "tableChanges(in:) needs at least one table")
        }
        let names = try await read { tx in
            var found: [String: String] = [:]
            for name in tables {
                let rows = try await tx.fetchAll(
                    "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE",
                    [.text(name)])
                guard let row = rows.first else {
                    throw DatabaseError(kind: .invalidArguments, message: "there is no table named \(name) to observe")
                }
                let spelling = try row.value(at: 1, as: String.self)
                guard try row.value(at: 0, as: String.self) == "table", !spelling.lowercased().hasPrefix("sqlite_") else {
                    throw DatabaseError(kind: .invalidArguments, message: "\(name) is not a table of the app: it cannot be observed")
                }
                found[spelling.lowercased()] = spelling
            }
            return found
        }
        let (stream, continuation) = AsyncStream.makeStream(of: DatabaseChange.self)
        let subscription = changeTracker.subscribe(ChangeTracker.Subscriber(
            receive: { batch in
                if batch.isExternal {
                    continuation.yield(.external)
                    return
                }
                var announced: Set<String> = []
                for row in batch.rows {
                    let table = row.table.lowercased()
                    if let name = names[table], announced.insert(table).inserted { continuation.yield(.table(name)) }
                }
            },
            finish: { continuation.finish() }))
        continuation.onTermination = { _ in subscription.cancel() }
        // Once recording, the writer announces every later commit, of this database's
        // connections and (as `.external`) of others.
        await subscription.isRecording.value
        return stream
    }
}
