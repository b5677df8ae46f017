#if PostgreSQL
/// The isolation level of a PostgreSQL transaction.
public enum PostgresIsolationLevel: String, Sendable {
    /// Each statement sees what was committed before it started (PostgreSQL's default).
    case readCommitted = "READ COMMITTED"
    /// The transaction sees one snapshot, taken at its first statement.
    case repeatableRead = "REPEATABLE READ"
    /// As if transactions ran one after another; a transaction that cannot be ordered fails with
    /// SQLSTATE 40001 and is retried (see ``PostgresConfiguration/transactionRetries``).
    case serializable = "SERIALIZABLE"
}
#endif
