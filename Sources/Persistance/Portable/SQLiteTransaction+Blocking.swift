extension SQLiteTransaction {
    /// Runs the portable `body` with a transaction over `connection`, on a task of its own
    /// whose jobs run on the calling thread (a ``BlockedThreadExecutor``: no thread of the
    /// cooperative pool is needed, however many are blocked elsewhere), and returns its value
    /// or throws its error once it ends.
    ///
    /// For a pool thread that holds `connection` inside an executor block and must run an
    /// asynchronous portable fetch there (a value observation's): the reverse of
    /// `ConnectionLease`, where a task borrows a pool thread's connection. The owner is blocked
    /// meanwhile, so the connection is used by one thread at a time, each statement confining
    /// it to the thread that runs it. The block's transaction, the reads recorded on the
    /// connection and its snapshot are the caller's.
    ///
    /// A portable `read` or `write` of the same database from `body` throws
    /// `DatabaseError.Kind.reentrantAccess` (it could wait for the blocked thread); `body`
    /// must await only the transaction's work, since the thread stays blocked until it ends.
    static func runBlocking<T: Sendable>(
        _ body: nonisolated(nonsending) @escaping @Sendable (SQLiteTransaction) async throws -> T, on connection: Connection,
        of executorID: ExecutorID
    ) throws -> T {
        let lent = ConnectionLease.UnsafeSendableConnection(connection: connection)
        let outcome = OneShot<Result<T, any Error>>()
        let executor = BlockedThreadExecutor()
        Task(executorPreference: executor) {
            let transaction = SQLiteTransaction(lent.connection)
            let held = HeldDatabase(executorID, enclosing: nil)
            let result: Result<T, any Error>
            do {
                result = .success(try await HeldDatabase.$current.withValue(held) { try await body(transaction) })
            } catch {
                result = .failure(error)
            }
            held.release()
            transaction.end()  // before the owner uses the connection again
            outcome.fulfill(result)
            executor.finish()
        }
        executor.run()
        return try outcome.wait().get()
    }
}
