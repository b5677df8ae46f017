/// The tracer of one read or write block (see ``DatabaseTracer``). Its methods are called by
/// the thread that runs the block, one at a time, in this order: `transactionDidStart()`, then
/// for each statement (the transaction's own `BEGIN` and `COMMIT` included)
/// `statementDidStart(_:sql:)` and later `statementDidEnd(_:duration:error:)`, then
/// `transactionDidEnd(error:)`.
public protocol DatabaseTransactionTracer: AnyObject, Sendable {
    /// The block starts running; its transaction begins next.
    func transactionDidStart()
    /// A statement starts running. `statement` identifies it until it ends (statements may
    /// overlap, e.g. while a cursor is open); `sql` is its text with its placeholders, never the
    /// values bound to them.
    func statementDidStart(_ statement: Int, sql: String)
    /// The statement `statement` ended after running for `duration`, with `error` when it
    /// failed. Called once its outcome is known: at the latest when the next statement starts
    /// or the block ends.
    func statementDidEnd(_ statement: Int, duration: Duration, error: (any Error)?)
    /// The block ended: its transaction committed (or its read finished) when `error` is nil,
    /// else it rolled back and the block throws `error`.
    func transactionDidEnd(error: (any Error)?)
}
