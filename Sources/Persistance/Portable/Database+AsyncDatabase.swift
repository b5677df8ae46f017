/// The portable API on SQLite: code written against `some AsyncDatabase` runs on a
/// ``Database`` unchanged.
///
/// ```swift
/// try await db.write { tx in try await Player.table.insert(&player, in: tx) }
/// ```
///
/// Both overloads of `read` and `write` are there: a block whose parameter is used as a
/// ``Connection`` and that never awaits is the synchronous API's (the fastest path, which runs
/// on the database's own thread); a block that awaits gets a ``SQLiteTransaction``.
extension Database: AsyncDatabase {
    public typealias Transaction = SQLiteTransaction

    /// Runs `body` in a read transaction on one of the database's readers (the writer, for an
    /// in-memory database) and returns its value. The block sees one snapshot from start to
    /// end, whatever commits meanwhile; writing from it fails with SQLite's read-only error.
    ///
    /// The block runs on the calling task, and holds its reader for as long as it runs,
    /// across its suspensions too: await the database's work in it, not unrelated slow work.
    ///
    /// Cancelling the task before the block starts makes the call throw `CancellationError`
    /// without running it; cancelling it while the block runs interrupts the running
    /// statement (and any it starts later).
    /// - Throws: the block's error; `CancellationError`; `DatabaseError.Kind.databaseClosed`
    ///   when the database is closed, or closes before the block starts;
    ///   `DatabaseError.Kind.reentrantAccess` when called from inside a portable block of this
    ///   database on the same task (it would wait for itself).
    @discardableResult
    nonisolated(nonsending) public func read<T: Sendable>(
        _ body: nonisolated(nonsending) (SQLiteTransaction) async throws -> T
    ) async throws -> T {
        try await withLentConnection(.read, body)
    }

    /// Runs `body` in the database's write transaction (immediate), commits when it returns
    /// and rolls back when it throws, and returns its value. SQLite never runs a block again.
    ///
    /// The block runs on the calling task and holds the writer for as long as it runs, across
    /// its suspensions too: every other write of the database (synchronous or portable, from
    /// this process or another) waits until it ends, so await the database's work in it, not
    /// unrelated slow work.
    ///
    /// Inside the block, use its transaction, never the database itself: a portable `read` or
    /// `write` of the same database from the block (or from a task it waits for) throws
    /// `DatabaseError.Kind.reentrantAccess` instead of waiting for itself forever, but the
    /// synchronous API (`write { conn in … }`, `writeSync`, `readSync`) cannot tell, and such a
    /// call never returns.
    ///
    /// Cancelling the task before the block starts makes the call throw `CancellationError`
    /// without running it; cancelling it while the block runs interrupts the running
    /// statement (and any it starts later) and rolls the transaction back, and the call
    /// throws `CancellationError`.
    /// - Throws: the block's error (the transaction rolled back); the commit's error;
    ///   `CancellationError`; `DatabaseError.Kind.databaseClosed` when the database is closed,
    ///   or closes before the block starts; `DatabaseError.Kind.databaseFileMoved` as the
    ///   synchronous `write`; `DatabaseError.Kind.reentrantAccess` when called from inside a
    ///   portable block of this database on the same task.
    @discardableResult
    nonisolated(nonsending) public func write<T: Sendable>(
        _ body: nonisolated(nonsending) (SQLiteTransaction) async throws -> T
    ) async throws -> T {
        try await withLentConnection(.write, body)
    }

    /// Runs `body` on the calling task with a connection that a pool thread lends it from
    /// inside an ordinary executor block (see `ConnectionLease`): that block's transaction,
    /// cancellation, closing and rollback apply as they do to a synchronous block.
    nonisolated(nonsending) private func withLentConnection<T: Sendable>(
        _ access: Access, _ body: nonisolated(nonsending) (SQLiteTransaction) async throws -> T
    ) async throws -> T {
        let enclosing = HeldDatabase.current
        if let enclosing, enclosing.holds(executorID) {
            throw DatabaseError.reentrantAccess(access == .read ? "a read" : "a write", path: path)
        }
        let lease = ConnectionLease()
        // A child task submits the lending job and awaits its end, so cancelling this task
        // cancels the job (interrupting the block's statements), and a job that ends without
        // lending (closed database, cancelled while queued) wakes this task.
        async let executed: Void = lend(lease, access)
        var outcome: Result<T, any Error>?
        if let connection = await lease.connection() {
            let transaction = SQLiteTransaction(connection)
            let held = HeldDatabase(executorID, enclosing: enclosing)
            if Task.isCancelled {
                outcome = .failure(CancellationError())
            } else {
                do {
                    outcome = .success(try await HeldDatabase.$current.withValue(held) { try await body(transaction) })
                } catch {
                    outcome = .failure(error)
                }
            }
            held.release()
            transaction.end()
            lease.giveBack(outcome?.failure)
        }
        try await executed
        guard let outcome else {
            throw DatabaseError.misuse("the executor ended a portable block's job without running it or failing")
        }
        return try outcome.get()
    }

    /// Submits the job that lends a connection of `access`'s pool to the block waiting on
    /// `lease`, and waits until it is over. Unlike `perform`, the caller never watches the
    /// job before suspending (it runs for the whole portable block, so a watch would only
    /// fail, and make the synchronous API's callers stop watching; see `WatchPolicy`).
    private func lend(_ lease: ConnectionLease, _ access: Access) async throws {
        let pool = access == .write ? writer : readers ?? writer
        let runner = BlockRunner(access, sharesWriter: readers == nil, instrumentation: instrumentation, changeTracker: changeTracker)
        let job = AsyncJob(runner) { connection in try lease.lend(connection) }
        await withTaskCancellationHandler {
            if job.isOver { return }
            pool.submit(job)
            await withUnsafeContinuation { job.attach($0) }
        } onCancel: {
            job.cancel()
        }
        lease.jobEnded()
        if let failure = job.outcome() { throw failure }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
