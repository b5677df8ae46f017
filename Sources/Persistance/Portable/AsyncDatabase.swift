/// A database of any engine, as the portable API sees it: blocks of reads and writes, each
/// in a transaction of its own. ``Database`` (SQLite) and `PersistancePostgres`'s
/// `PostgresDatabase` conform; code written against `some AsyncDatabase` runs unchanged on
/// either, and only opening differs.
///
/// The blocks are asynchronous, so a PostgreSQL statement waits for the network without
/// holding a thread. On SQLite, the synchronous API (`Database.write { conn in … }` with a
/// ``Connection``) stays the fastest path; the portable block holds the writer (or a reader)
/// for as long as it runs.
public protocol AsyncDatabase: Sendable {
    /// The transaction the blocks receive.
    associatedtype Transaction: DatabaseTransaction

    /// Runs `body` in a read-only transaction that sees one snapshot from start to end, and
    /// returns its value. Writing from it fails.
    @discardableResult
    nonisolated(nonsending) func read<T: Sendable>(
        _ body: nonisolated(nonsending) (Transaction) async throws -> T
    ) async throws -> T

    /// Runs `body` in a read-write transaction, committed when it returns and rolled back
    /// when it throws, and returns its value.
    ///
    /// An engine may run the block again when the transaction failed only because it
    /// conflicted with another one (PostgreSQL's serialization failures and deadlocks), so
    /// the block must be safe to re-run: no side effects outside the transaction.
    @discardableResult
    nonisolated(nonsending) func write<T: Sendable>(
        _ body: nonisolated(nonsending) (Transaction) async throws -> T
    ) async throws -> T

    /// Observes the value `fetch` returns: the sequence yields it at once, then again after
    /// each commit, by this app instance or another, that changed a table `fetch` read. See
    /// ``AsyncValueObservation`` for the guarantees, the same on every engine.
    ///
    /// ```swift
    /// for try await count in db.observe({ tx in try await Player.table.count(in: tx) }) {
    ///     print("players:", count)
    /// }
    /// ```
    ///
    /// `fetch` runs in a read-only transaction that sees one snapshot; it must read the
    /// database only through its transaction.
    func observe<Value: Sendable>(
        _ fetch: nonisolated(nonsending) @escaping @Sendable (Transaction) async throws -> Value
    ) -> AsyncValueObservation<Value>

    /// Observes the value `fetch` returns, like ``observe(_:)``, sharing one fetch per change
    /// with every other running observation of this database made with an equal `key` and the
    /// same value type: many clients streaming the same value cost one fetch per change. The
    /// fetch of the observation that started first is the one that runs, so observations of
    /// one key must fetch the same thing. One that joins a running observation first receives
    /// its latest value.
    func observe<Value: Sendable>(
        sharing key: some Hashable & Sendable, _ fetch: nonisolated(nonsending) @escaping @Sendable (Transaction) async throws -> Value
    ) -> AsyncValueObservation<Value>

    /// The tables of `tables` that each committed transaction changes, by this app instance or
    /// another, in commit order, from the moment this returns: `.table(name)` once per table
    /// and transaction, however many rows and statements changed it; `.external` when commits
    /// may have changed any table unheard (another process's commit to a SQLite file, a lost
    /// PostgreSQL listening connection made again). Nothing for a transaction, or a savepoint,
    /// that rolls back. PostgreSQL also announces a table that a statement touched without
    /// changing a row (its triggers are per statement); SQLite does not.
    ///
    /// ```swift
    /// for await change in try await db.tableChanges(in: ["player"]) {
    ///     if case .table(let table) = change { print(table, "changed") }
    /// }
    /// ```
    ///
    /// The stream ends when its consuming task is cancelled, when the loop stops, or when the
    /// database closes.
    /// - Throws: `DatabaseError.Kind.invalidArguments` for no table, or a name that is not a
    ///   table's; `DatabaseError.Kind.databaseClosed`.
    func tableChanges(in tables: [String]) async throws -> AsyncStream<DatabaseChange>

    /// The changes made to the document collection `collection` from now on, each after the
    /// transaction that made it commits, in commit order; nothing for a change rolled back.
    /// See ``AsyncDocumentCollection/events()``.
    func documentEvents(of collection: String) -> AsyncStream<DocumentEvent>
}
