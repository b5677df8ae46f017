/// How the executor runs one block on a pool thread: inside its access's transaction,
/// measured by the database's instrumentation, and, after a write, with what it committed
/// announced to the database's observers.
struct BlockRunner: Sendable {
    let access: Access
    /// Whether the connection is also the writer (an in-memory database, or a read that an
    /// observation runs on the writer); a read then refuses to write.
    let sharesWriter: Bool
    let instrumentation: DatabaseInstrumentation
    let changeTracker: ChangeTracker
    /// When the block was queued, for the queue-wait metric.
    let submitted: UInt64
    /// The block's tracer, asked for on the submitting task; nil when the database has no tracer.
    let transactionTracer: (any DatabaseTransactionTracer)?

    init(_ access: Access, sharesWriter: Bool, instrumentation: DatabaseInstrumentation, changeTracker: ChangeTracker) {
        self.access = access
        self.sharesWriter = sharesWriter
        self.instrumentation = instrumentation
        self.changeTracker = changeTracker
        submitted = instrumentation.submitted()
        transactionTracer = instrumentation.transactionTracer(for: access)
    }

    /// Runs `body` with `connection` (see `Access.run` for `isCancelled`).
    func run(_ body: (Connection) throws -> Void, on connection: Connection, isCancelled: () -> Bool) throws {
        defer {
            if access == .write { changeTracker.writeDidEnd(on: connection) }
        }
        try instrumentation.measure(access, submittedAt: submitted, tracedBy: transactionTracer, on: connection) {
            try access.run(body, on: connection, sharesWriter: sharesWriter, isCancelled: isCancelled)
        }
    }
}
