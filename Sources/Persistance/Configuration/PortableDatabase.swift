/// A database of any engine that its opener also closes: what
/// ``Database/openPortable(_:registry:readerCount:)`` and a ``DatabaseServer`` return.
///
/// It is an ``AsyncDatabase``, so the portable API runs on it whichever engine the
/// configuration target chose: call `read` and `write` on it, or pass it to code written
/// against `some AsyncDatabase` (Swift opens the existential for you):
///
/// ```swift
/// let db = try await Database.openPortable("game_main")   // SQLite or PostgreSQL, as the target says
/// try await db.write { tx in try await Player.table.insert(&player, in: tx) }
/// try await register(&player, in: db)                       // func register(_:in: some AsyncDatabase)
/// try await db.close()
/// ```
///
/// ``Database`` (SQLite) and `PersistancePostgres`'s `PostgresDatabase` conform. Code that
/// needs an engine's own API casts: `if let sqlite = db as? Database { … }`.
public protocol PortableDatabase: AsyncDatabase {
    /// Closes the database: later blocks fail with `DatabaseError.Kind.databaseClosed`.
    /// Closing twice does nothing more.
    func close() async throws
}

extension Database: PortableDatabase {}
