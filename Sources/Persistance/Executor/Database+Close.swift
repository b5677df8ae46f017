extension Database {
    /// Whether the database has been closed (or is closing).
    public var isClosed: Bool {
        !isAccepting.withLock { $0 }
    }

    /// Closes the database: new work fails at once and queued work fails, both with
    /// `DatabaseError.Kind.databaseClosed`; running work finishes (and commits); every change
    /// stream and value observation ends (their loops finish normally); then every
    /// connection closes and the call returns. The file's next `open` makes a new executor.
    ///
    /// The database is shared by everyone who opened the file, so this closes it for all of
    /// them. Closing again waits for the first close and does nothing more.
    /// - Throws: the first error met while closing a connection.
    public func close() async throws {
        beginClosing()
        try await closing.value.get()
    }

    /// Closes the database once the work already submitted has run: new work fails at once
    /// with `DatabaseError.Kind.databaseClosed`, queued and running work finish (and commit),
    /// every change stream and value observation ends (their loops finish normally), then
    /// every connection closes and the call returns. What a server's graceful shutdown wants
    /// (see `DatabaseService` in `PersistanceServiceLifecycle`).
    ///
    /// Like `close()`, it closes the database for everyone sharing it; a `close()` already
    /// under way is waited for.
    /// - Throws: the first error met while closing a connection.
    public func closeGracefully() async throws {
        beginClosing(failingQueuedWork: false)
        try await closing.value.get()
    }

    /// Closes the database like `close()`, blocking the calling thread until every
    /// connection has closed.
    /// - Throws: `DatabaseError.Kind.reentrantAccess` when called from inside a block of this
    ///   database (it would wait for itself); the first error met while closing a connection.
    public func closeSync() throws {
        guard !executorID.ownsCurrentThread else {
            throw DatabaseError.reentrantAccess("a synchronous close", path: path)
        }
        beginClosing()
        try closing.wait().get()
    }

    /// Stops accepting work, fails queued work (unless `failingQueuedWork` is false: then it
    /// runs), ends every change subscription, and closes every connection once the remaining
    /// work has finished (readers first, the writer last); `closing` is set then.
    func beginClosing(failingQueuedWork: Bool = true) {
        let isFirst = isAccepting.withLock { isAccepting in
            defer { isAccepting = false }
            return isAccepting
        }
        guard isFirst else { return }
        if let registryKey {
            DatabaseRegistry.shared.remove(registryKey, executorID: executorID)
        }
        let queued = failingQueuedWork ? DatabaseError.databaseClosed(path, queued: true) : nil
        let later = DatabaseError.databaseClosed(path)
        readers?.reject(queuedWith: queued, laterWith: later)
        writer.reject(queuedWith: queued, laterWith: later)
        changeTracker.finishAll()
        let writer = self.writer
        let closing = self.closing
        let stopWriter: @Sendable ((any Error)?) -> Void = { readerFailure in
            writer.stop { writerFailure in
                closing.fulfill((readerFailure ?? writerFailure).map { .failure($0) } ?? .success(()))
            }
        }
        if let readers {
            readers.stop(onStopped: stopWriter)
        } else {
            stopWriter(nil)
        }
    }
}
