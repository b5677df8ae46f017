/// A database of any engine, as the portable API sees it: blocks of reads and writes, each
/// in a transaction of its own. ``Database`` (SQLite) and `PersistancePostgres`'s
/// `PostgresDatabase` conform; code written against `some AsyncDatabase` runs unchanged on
/// either, and only opening differs.
///
/// The blocks are asynchronous, so a PostgreSQL statement waits for the network without
/// holding a thread. On SQLite, the synchronous API (`Database.write { conn in … }` with a
/// ``Connection``) stays the fastest path; the portable block holds the writer (or a reader)
/// for as long as it runs.
public protocol AsyncDatabase: Sendable {
    /// The transaction the blocks receive.
    associatedtype Transaction: DatabaseTransaction

    /// Runs `body` in a read-only transaction that sees one snapshot from start to end, and
    /// returns its value. Writing from it fails.
    @discardableResult
    nonisolated(nonsending) func read<T: Sendable>(
        _ body: nonisolated(nonsending) (Transaction) async throws -> T
    ) async throws -> T

    /// Runs `body` in a read-write transaction, committed when it returns and rolled back
    /// when it throws, and returns its value.
    ///
    /// An engine may run the block again when the transaction failed only because it
    /// conflicted with another one (PostgreSQL's serialization failures and deadlocks), so
    /// the block must be safe to re-run: no side effects outside the transaction.
    @discardableResult
    nonisolated(nonsending) func write<T: Sendable>(
        _ body: nonisolated(nonsending) (Transaction) async throws -> T
    ) async throws -> T
}
