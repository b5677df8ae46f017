extension Database {
    /// Runs `body` with a reader connection and returns its value, suspending the calling
    /// task meanwhile. Reads run concurrently with each other and with the write.
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
    public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await perform(.read, body)
    }

    /// Runs `body` with the writer connection in an immediate transaction and returns its
    /// value, suspending the calling task meanwhile. The transaction commits when the block
    /// returns and rolls back when it throws.
    ///
    /// Writes run one at a time, in the order they were submitted.
    ///
    /// Cancelling the task before the block starts makes the call throw `CancellationError`
    /// without running it; cancelling it while the block runs interrupts the block's running
    /// statement (and any it starts later) and rolls the transaction back, and the call
    /// throws `CancellationError`.
    /// - Throws: the block's error; `CancellationError`; `DatabaseError.Kind.databaseClosed`
    ///   when the database is closed, or closes before the block starts.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await perform(.write, body)
    }

    /// Runs `body` like `read(_:)`, blocking the calling thread until it has run. For code
    /// that cannot `await`; async code should call `read(_:)`. As with `DispatchQueue.sync`,
    /// the block may capture and change the caller's local variables, and its value need not
    /// be `Sendable`.
    /// - Throws: `DatabaseError.Kind.reentrantAccess` when called from inside a read or
    ///   write block of this database (use that block's connection instead).
    public func readSync<T>(_ body: (Connection) throws -> T) throws -> T {
        try performSync(.read, body)
    }

    /// Runs `body` like `write(_:)`, blocking the calling thread until it has run. For code
    /// that cannot `await`; async code should call `write(_:)`. As with `DispatchQueue.sync`,
    /// the block may capture and change the caller's local variables, and its value need not
    /// be `Sendable`.
    /// - Throws: `DatabaseError.Kind.reentrantAccess` when called from inside a read or
    ///   write block of this database (use that block's connection instead).
    public func writeSync<T>(_ body: (Connection) throws -> T) throws -> T {
        try performSync(.write, body)
    }

    private func pool(for access: Access) -> ConnectionPool {
        switch access {
        case .read: readers ?? writer
        case .write: writer
        }
    }

    /// Runs `body` like `perform(_:_:)`; a read with `onWriter` runs on the writer connection,
    /// in order with the writes (value observations fetch there to see exactly the commits
    /// announced so far).
    func perform<T: Sendable>(
        _ access: Access, onWriter: Bool = false, _ body: @escaping @Sendable (Connection) throws -> T
    ) async throws -> T {
        try Task.checkCancellation()
        let pool = onWriter ? writer : pool(for: access)
        let sharesWriter = onWriter || readers == nil
        let tracker = changeTracker
        let job = AsyncJob<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard job.attach(continuation) else { return }
                pool.submit(ConnectionPool.WorkItem(
                    run: { connection in
                        job.run(interrupting: connection.interruptHandle) { isCancelled in
                            defer { if access == .write { tracker.writeDidEnd(on: connection) } }
                            return try access.run(body, on: connection, sharesWriter: sharesWriter, isCancelled: isCancelled)
                        }
                    },
                    fail: { error in job.fail(error) }))
            }
        } onCancel: {
            job.cancel()
        }
    }

    private func performSync<T>(_ access: Access, _ body: (Connection) throws -> T) throws -> T {
        guard !executorID.ownsCurrentThread else {
            throw DatabaseError.reentrantAccess(access == .read ? "a synchronous read" : "a synchronous write", path: path)
        }
        let pool = pool(for: access)
        let sharesWriter = readers == nil
        let tracker = changeTracker
        return try withoutActuallyEscaping(body) { body in
            let job = SyncJob(body)
            pool.submit(ConnectionPool.WorkItem(
                run: { connection in
                    job.run { body in
                        defer { if access == .write { tracker.writeDidEnd(on: connection) } }
                        return try access.run(body, on: connection, sharesWriter: sharesWriter, isCancelled: { false })
                    }
                },
                fail: { error in job.fail(error) }))
            return try job.wait()
        }
    }
}
