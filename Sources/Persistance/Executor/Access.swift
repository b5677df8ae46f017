/// What a block may do with its connection, and the transaction that wraps it.
enum Access: Sendable {
    /// A read: one deferred transaction whose snapshot is taken before the block runs, so
    /// the block sees the same database from start to end, whatever commits meanwhile.
    case read
    /// A write: one immediate transaction, committed when the block returns and rolled back
    /// when it throws.
    case write

    /// Runs `body` with `connection` inside this access's transaction.
    /// - Parameters:
    ///   - sharesWriter: whether `connection` is also the writer (an in-memory database);
    ///     a read then refuses to write, as a read-only reader connection would.
    ///   - isCancelled: whether the work has been cancelled. Once it answers true, the block's
    ///     statements are interrupted; it is asked again when a write's block returns: a
    ///     cancelled write is rolled back and throws `CancellationError`.
    func run<T>(
        _ body: (Connection) throws -> T, on connection: Connection, sharesWriter: Bool,
        isCancelled: () -> Bool
    ) throws -> T {
        let interruptibleBody = { (connection: Connection) in
            try connection.interruptingStatements(when: isCancelled) { try body(connection) }
        }
        switch self {
        case .read:
            return try read(interruptibleBody, on: connection, sharesWriter: sharesWriter)
        case .write:
            return try write(interruptibleBody, on: connection, isCancelled: isCancelled)
        }
    }

    private func read<T>(_ body: (Connection) throws -> T, on connection: Connection, sharesWriter: Bool) throws -> T {
        guard sharesWriter else { return try readInSnapshot(body, on: connection) }
        try connection.execute("PRAGMA query_only = 1")
        let result = Result { try readInSnapshot(body, on: connection) }
        try connection.execute("PRAGMA query_only = 0")
        return try result.get()
    }

    private func readInSnapshot<T>(_ body: (Connection) throws -> T, on connection: Connection) throws -> T {
        try connection.transaction(.deferred) {
            // A deferred transaction takes its snapshot at its first read: take it now.
            try connection.execute("SELECT count(*) FROM sqlite_master")
            return try body(connection)
        }
    }

    private func write<T>(_ body: (Connection) throws -> T, on connection: Connection, isCancelled: () -> Bool) throws -> T {
        var value: T?
        var wasCancelled = false
        try connection.inTransaction(.immediate) {
            value = try body(connection)
            wasCancelled = isCancelled()
            return wasCancelled ? .rollback : .commit
        }
        guard !wasCancelled, let value else { throw CancellationError() }
        return value
    }
}
