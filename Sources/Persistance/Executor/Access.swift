/// What a block may do with its connection, and the transaction that wraps it.
@usableFromInline
enum Access: Sendable {
    /// A read: one deferred transaction whose snapshot is taken before the block runs, so
    /// the block sees the same database from start to end, whatever commits meanwhile.
    case read
    /// A write: one immediate transaction, committed when the block returns and rolled back
    /// when it throws, or when the database file was deleted or replaced meanwhile.
    case write

    /// Runs `body` with `connection` inside this access's transaction.
    /// - Parameters:
    ///   - sharesWriter: whether `connection` is also the writer (an in-memory database);
    ///     a read then refuses to write, as a read-only reader connection would.
    ///   - isCancelled: whether the work has been cancelled, asked when a write's block
    ///     returns: a cancelled write is rolled back and throws `CancellationError`.
    func run(
        _ body: (Connection) throws -> Void, on connection: Connection, sharesWriter: Bool,
        isCancelled: () -> Bool
    ) throws {
        switch self {
        case .read:
            try read(body, on: connection, sharesWriter: sharesWriter)
        case .write:
            try write(body, on: connection, isCancelled: isCancelled)
        }
    }

    private func read(_ body: (Connection) throws -> Void, on connection: Connection, sharesWriter: Bool) throws {
        guard sharesWriter else { return try readInSnapshot(body, on: connection) }
        try connection.execute("PRAGMA query_only = 1")
        let result = Result { try readInSnapshot(body, on: connection) }
        try connection.execute("PRAGMA query_only = 0")
        try result.get()
    }

    private func readInSnapshot(_ body: (Connection) throws -> Void, on connection: Connection) throws {
        try connection.transaction(.deferred) {
            // A deferred transaction takes its snapshot at its first read: take it now.
            try connection.takeSnapshot()
            try body(connection)
        }
    }

    private func write(_ body: (Connection) throws -> Void, on connection: Connection, isCancelled: () -> Bool) throws {
        var wasCancelled = false
        try connection.inTransaction(.immediate) {
            try body(connection)
            wasCancelled = isCancelled()
            if wasCancelled { return .rollback }
            try connection.checkFileNotMoved()
            return .commit
        }
        if wasCancelled { throw CancellationError() }
    }
}
