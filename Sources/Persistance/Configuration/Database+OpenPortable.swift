extension Database {
    /// Opens the database named `name` on the engine its configuration target chooses: on the
    /// target's server when it answers one (``ConfigurationTarget/server(for:)``), else as a
    /// SQLite file, exactly as ``open(_:registry:readerCount:)`` does, returning that
    /// ``Database``.
    ///
    /// ```swift
    /// let db = try await Database.openPortable("game_main")   // the target `game` decides
    /// try await db.write { tx in try await Player.table.insert(&player, in: tx) }
    /// ```
    ///
    /// On a server, the target's migrator and declared tables are applied through the portable
    /// API, as `Migrator.migrate(_:reconciling:)` does: each pending step in a transaction that
    /// holds off other instances' schema changes (app instances that start together apply each
    /// step once), then the declared tables created or brought to their declaration; without a
    /// migrator, the tables alone. Only steps made from SQL text (`MigrationStep(_:sql:)`) run
    /// there.
    /// - Parameters:
    ///   - name: The database name; it maps to its target as for `open(_:registry:readerCount:)`.
    ///   - registry: The targets to look the name up in.
    ///   - readerCount: The most SQLite reader connections; unused on a server.
    /// - Throws: `.configuration` for an invalid name, whatever the engine. For a SQLite file,
    ///   the errors of `open(_:registry:readerCount:)`. On a server: `.configuration` when the
    ///   target answers keys; the server's errors, their message prefixed with
    ///   `opening <name>: `; the migration's, prefixed with `migrating <name>: `, after which
    ///   the database is closed.
    public static func openPortable(
        _ name: String, registry: TargetRegistry = .shared, readerCount: Int? = nil
    ) async throws -> any PortableDatabase {
        guard let target = try registry.target(forDatabase: name), let server = target.server(for: name) else {
            return try await open(name, registry: registry, readerCount: readerCount)
        }
        guard target.secretKeys(for: name).isEmpty else {
            throw DatabaseError.configuration(
                "the target of \"\(name)\" answers a database server and encryption keys; keys encrypt SQLite "
                    + "files only, so answer none for a database on a server")
        }
        let database: any PortableDatabase
        do {
            database = try await server.openDatabase(named: name)
        } catch let error as DatabaseError {
            throw error.during("opening \(name)")
        }
        do {
            try await applySchema(of: target, named: name, to: database)
        } catch {
            try? await database.close()
            if let error = error as? DatabaseError { throw error.during("migrating \(name)") }
            throw error
        }
        return database
    }

    /// Runs the target's migrator on `database` and brings its declared tables to their
    /// declaration, through the portable API.
    private static func applySchema(
        of target: any ConfigurationTarget, named name: String, to database: some AsyncDatabase
    ) async throws {
        let tables = target.tables(for: name)
        if let migrator = target.migrator(for: name) {
            try await migrator.migrate(database, reconciling: tables)
        } else if !tables.isEmpty {
            try await database.write { tx in try await Migrator.reconcile(tables, in: tx) }
        }
    }
}
