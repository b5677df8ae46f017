/// What a change stream reports: `Database.changes(in:)` (SQLite) reports each row a commit
/// changed; the portable ``AsyncDatabase/tableChanges(in:)`` (every engine) reports each table
/// a commit changed. Either reports commits whose changes are unknown as `.external`.
public enum DatabaseChange: Sendable, Hashable {
    /// A row of one of the watched tables changed, in a transaction that committed (SQLite).
    case row(RowChange)
    /// A transaction that committed changed the named table, which rows it does not tell:
    /// the portable stream names tables, once per table and transaction.
    case table(String)
    /// Commits whose changes are unknown: on SQLite, another connection or process committed
    /// to the file (noticed through `PRAGMA data_version`); on PostgreSQL, the connection that
    /// listens for notifications was lost and made again, so commits may have gone unheard.
    case external
}
