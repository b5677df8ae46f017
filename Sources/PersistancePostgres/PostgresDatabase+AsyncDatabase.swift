#if PostgreSQL
import Persistance

/// PostgreSQL as a portable database: code written against `some AsyncDatabase` runs on it
/// unchanged. Reads see one snapshot; writes run at the configuration's isolation level, and
/// those that conflict are retried (see ``PostgresConfiguration/transactionRetries``).
extension PostgresDatabase: AsyncDatabase {
    /// Runs `body` in a READ ONLY transaction that sees one snapshot from start to end, as a
    /// SQLite read does: REPEATABLE READ (which never fails a read-only transaction), or
    /// SERIALIZABLE when the configuration asks for it.
    @discardableResult
    public func read<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        let level: PostgresIsolationLevel = configuration.isolationLevel == .serializable ? .serializable : .repeatableRead
        return try await transaction(readOnly: true, isolationLevel: level, body)
    }

    /// Runs `body` in a READ WRITE transaction at the configuration's isolation level, run
    /// again when it fails with a transaction conflict.
    @discardableResult
    public func write<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await transaction(readOnly: false, isolationLevel: nil, body)
    }
}
#endif
