#if PostgreSQL
import Persistance

/// PostgreSQL as a portable database: code written against `some AsyncDatabase` runs on it
/// unchanged. Blocks run at the configuration's isolation level; writes that conflict are
/// retried (see ``PostgresConfiguration/transactionRetries``).
extension PostgresDatabase: AsyncDatabase {
    /// Runs `body` in a READ ONLY transaction at the configuration's isolation level.
    @discardableResult
    public func read<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await transaction(readOnly: true, isolationLevel: nil, body)
    }

    /// Runs `body` in a READ WRITE transaction at the configuration's isolation level, run
    /// again when it fails with a transaction conflict.
    @discardableResult
    public func write<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await transaction(readOnly: false, isolationLevel: nil, body)
    }
}
#endif
