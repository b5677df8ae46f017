/// Whether a traced block reads or writes (see ``DatabaseTracer``).
public enum DatabaseTransactionKind: String, Sendable {
    /// A read block: a deferred transaction on a reader connection.
    case read
    /// A write block: an immediate transaction on the writer connection.
    case write
}
