extension Database {
    /// Runs `body` with a reader connection and returns its value, suspending the calling
    /// task meanwhile. Reads run concurrently with each other and with the write.
    ///
    /// When an awake, free reader thread starts the block at once, the task may first watch
    /// for its end for a moment (`DatabaseConfiguration.spinWait`, 50 µs by default, yielding
    /// its thread between looks; never while the machine has more runnable threads than
    /// processors), and suspends only if it has not ended: a small block's value arrives
    /// without a suspension.
    ///
    /// The block runs in a transaction whose snapshot is taken before it starts: it sees the
    /// database as it was then, from start to end, whatever commits meanwhile. Writing from a
    /// read fails with SQLite's read-only error.
    ///
    /// Cancelling the task before the block starts makes the call throw `CancellationError`
    /// without running it; cancelling it while the block runs interrupts the block's running
    /// statement (and any it starts later), and a block that then fails throws
    /// `CancellationError`.
    /// - Throws: the block's error; `CancellationError`; `DatabaseError.Kind.databaseClosed`
    ///   when the database is closed, or closes before the block starts.
    @inlinable
    public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let call = BlockCall(body)
        try await perform(.read) { connection in try call.run(on: connection) }
        return call.take()!
    }

    /// Runs `body` with the writer connection in an immediate transaction and returns its
    /// value, suspending the calling task meanwhile. The transaction commits when the block
    /// returns and rolls back when it throws.
    ///
    /// Writes run one at a time, in the order they were submitted. As with `read(_:)`, a
    /// block that the awake writer thread starts at once may be watched for a moment before
    /// the task suspends.
    ///
    /// Cancelling the task before the block starts makes the call throw `CancellationError`
    /// without running it; cancelling it while the block runs interrupts the block's running
    /// statement (and any it starts later) and rolls the transaction back, and the call
    /// throws `CancellationError`.
    /// - Throws: the block's error; `CancellationError`; `DatabaseError.Kind.databaseClosed`
    ///   when the database is closed, or closes before the block starts;
    ///   `DatabaseError.Kind.databaseFileMoved` (rolled back) when the file was deleted or
    ///   replaced while the database was open.
    @inlinable
    public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let call = BlockCall(body)
        try await perform(.write) { connection in try call.run(on: connection) }
        return call.take()!
    }

    /// Runs `body` like `read(_:)`, blocking the calling thread until it has run. For code
    /// that cannot `await`; async code should call `read(_:)`. As with `DispatchQueue.sync`,
    /// the block may capture and change the caller's local variables, and its value need not
    /// be `Sendable`.
    /// - Throws: `DatabaseError.Kind.reentrantAccess` when called from inside a read or
    ///   write block of this database (use that block's connection instead);
    ///   `DatabaseError.Kind.deadlock` when called from inside a block of another database
    ///   that this one is waiting for (see ``DatabaseError/Kind/deadlock``).
    @inlinable
    public func readSync<T>(_ body: (Connection) throws -> T) throws -> T {
        var result: T?
        try performSync(.read) { connection in result = try body(connection) }
        return result.take()!
    }

    /// Runs `body` like `write(_:)`, blocking the calling thread until it has run. For code
    /// that cannot `await`; async code should call `write(_:)`. As with `DispatchQueue.sync`,
    /// the block may capture and change the caller's local variables, and its value need not
    /// be `Sendable`. When the writer is idle with nothing queued, the block runs on the
    /// calling thread, with the writer's connection lent to it: no hand-off between threads.
    /// - Throws: `DatabaseError.Kind.reentrantAccess` when called from inside a read or
    ///   write block of this database (use that block's connection instead);
    ///   `DatabaseError.Kind.deadlock` when called from inside a block of another database
    ///   that this one is waiting for (see ``DatabaseError/Kind/deadlock``);
    ///   `DatabaseError.Kind.databaseFileMoved` as `write(_:)`.
    @inlinable
    public func writeSync<T>(_ body: (Connection) throws -> T) throws -> T {
        var result: T?
        try performSync(.write) { connection in result = try body(connection) }
        return result.take()!
    }

    private func pool(for access: Access) -> ConnectionPool {
        switch access {
        case .read: readers ?? writer
        case .write: writer
        }
    }

    /// Runs `body` on a connection of `access`'s pool, in its transaction, suspending the
    /// calling task until it has run. Not generic: `read` and `write` keep the block's value.
    /// A read with `onWriter` runs on the writer connection, in order with the writes (value
    /// observations fetch there to see exactly the commits announced so far).
    ///
    /// When an awake idle pool thread takes the job at once, the task first watches it for a
    /// moment (`BriefWatch`, for the configuration's `spinWait`; unless the pool's recent
    /// blocks outlasted their watches, see `WatchPolicy`, or the machine is overloaded, see
    /// `MachineLoad`) before suspending: a small block runs in less time than suspending and
    /// resuming a task take.
    @usableFromInline
    func perform(_ access: Access, onWriter: Bool = false, _ body: @escaping @Sendable (Connection) throws -> Void) async throws {
        let pool = onWriter ? writer : pool(for: access)
        let runner = BlockRunner(
            access, sharesWriter: onWriter || readers == nil, instrumentation: instrumentation, changeTracker: changeTracker)
        let job = AsyncJob(runner, body)
        // A task cancelled already runs `job.cancel()` as the handler is installed: the job
        // is then over, with `CancellationError`, and is not submitted.
        await withTaskCancellationHandler {
            if job.isOver { return }
            if pool.watchJob(startedAtOnce: pool.submit(job), until: { job.isOver }) { return }
            await withUnsafeContinuation { job.attach($0) }
        } onCancel: {
            job.cancel()
        }
        if let failure = job.outcome() { throw failure }
    }

    /// Runs `body` like `perform`, blocking the calling thread until it has run.
    ///
    /// When the pool's only thread (the writer's) is idle and nothing is queued, and the
    /// caller is not itself a thread of a database, the block runs on the calling thread with
    /// that thread's connection (`ConnectionPool.runOnCallingThread`), as `DispatchQueue.sync`
    /// runs its block: no hand-off between threads. Otherwise it is queued behind the work
    /// already submitted.
    @usableFromInline
    func performSync(_ access: Access, _ body: (Connection) throws -> Void) throws {
        let currentPool = ConnectionPool.current
        guard currentPool?.executorID != executorID else {
            throw DatabaseError.reentrantAccess(access == .read ? "a synchronous read" : "a synchronous write", path: path)
        }
        let pool = pool(for: access)
        let runner = BlockRunner(
            access, sharesWriter: readers == nil, instrumentation: instrumentation, changeTracker: changeTracker)
        if currentPool == nil,
            try pool.runOnCallingThread({ connection in try runner.run(body, on: connection, isCancelled: { false }) })
        {
            return
        }
        let wait = try currentPool.map { try WaitGraph.shared.beginWait(by: $0, on: pool) }
        defer { wait.map(WaitGraph.shared.endWait) }
        try withoutActuallyEscaping(body) { body in
            let job = SyncJob(runner, body)
            let startedAtOnce = pool.submit(job)
            try job.wait { isDone in pool.watchJob(startedAtOnce: startedAtOnce, until: isDone) }
        }
    }
}
