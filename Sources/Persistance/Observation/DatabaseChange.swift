/// What `Database.changes(in:)` reports: a row changed by a commit of this database, or a
/// commit by another connection or process, whose changes are unknown.
public enum DatabaseChange: Sendable, Hashable {
    /// A row of one of the watched tables changed, in a transaction that committed.
    case row(RowChange)
    /// Another connection or process committed to the file (noticed through
    /// `PRAGMA data_version`); which tables and rows it changed is unknown.
    case external
}
