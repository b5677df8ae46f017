/// Receives the transactions and statements a database runs, for distributed tracing: set in
/// ``DatabaseConfiguration/tracer``. The `PersistanceTracing` product implements it with
/// swift-distributed-tracing.
///
/// Nil by default, and then free: no tracer is asked for, and SQLite reports no statement.
public protocol DatabaseTracer: Sendable {
    /// The tracer of one read or write block of the database named `database`, or nil to trace
    /// none. Called on the task (or thread) that submits the block, before it is queued: the
    /// place to capture the caller's context, such as its task-local values.
    func transactionTracer(for kind: DatabaseTransactionKind, database: String) -> (any DatabaseTransactionTracer)?
}
