#if PostgreSQL
import Persistance

extension PostgresDatabase {
    /// The tables of `tables` that each transaction changes, announced when it commits, by this
    /// app instance or any other, from the moment this returns: `.table(name)` once per table
    /// and transaction (PostgreSQL folds the transaction's notifications), whatever the number
    /// of rows or statements, in commit order.
    ///
    /// Each table gets a statement-level trigger (`persistance_notify_change`, installed once,
    /// under an advisory lock so that app instances starting together install it once) that
    /// calls `pg_notify` when a statement inserts, updates, deletes or truncates. PostgreSQL
    /// delivers a notification only when its transaction commits: nothing is announced for a
    /// transaction that rolls back, nor for a savepoint that rolls back. A statement that
    /// changes no row announces its table too. The database listens on one connection of its
    /// own; when that connection is lost it is made again and every stream receives
    /// `.external`: commits made meanwhile went unheard.
    ///
    /// ```swift
    /// for await change in try await db.changes(in: ["player"]) {
    ///     if case .table(let table) = change { print(table, "changed") }
    /// }
    /// ```
    ///
    /// The stream ends when its consuming task is cancelled, when the loop stops, or when the
    /// database closes.
    /// - Parameter tables: SQL names, resolved like a query's (`player`, `game.player`).
    /// - Throws: `DatabaseError.Kind.invalidArguments` for no table, or a name that is not a
    ///   table's; `DatabaseError.Kind.databaseClosed`; the server's errors (installing a trigger
    ///   takes the table's owner).
    public func changes(in tables: [String]) async throws -> AsyncStream<DatabaseChange> {
        try await tableChanges(in: tables)
    }

    /// The portable table change stream (`AsyncDatabase.tableChanges(in:)`), the same stream
    /// as ``changes(in:)``: `.table(name)` once per table a committed transaction changed,
    /// `.external` after the listening connection was lost and made again.
    public func tableChanges(in tables: [String]) async throws -> AsyncStream<DatabaseChange> {
        guard !tables.isEmpty else {
            throw DatabaseError(kind: .invalidArguments, message: "observing changes needs at least one table")
        }
        let notifier = changeNotifier
        let watched = try await notifier.withPooledConnection(of: client) { connection in
            try await PostgresChangeTriggers.tables(named: tables, on: connection)
        }
        try await notifier.installTriggers(on: Set(watched), through: client)
        let names = Dictionary(watched.map { ($0.qualifiedName, $0.name) }, uniquingKeysWith: { first, _ in first })
        let (stream, continuation) = AsyncStream.makeStream(of: DatabaseChange.self)
        let id = try await notifier.subscribe(.init(
            receive: { notice in
                switch notice {
                case .unknown: continuation.yield(.external)
                case .table(let qualifiedName):
                    if let name = names[qualifiedName] { continuation.yield(.table(name)) }
                }
            },
            finish: { continuation.finish() }))
        continuation.onTermination = { _ in notifier.unsubscribe(id) }
        return stream
    }
}
#endif
