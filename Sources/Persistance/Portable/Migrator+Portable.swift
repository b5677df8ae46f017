extension Migrator {
    /// Runs every pending step on `database`, of any engine, each in its own write
    /// transaction, then brings `tables` to their declarations (`Table.reconcile(in:)`) in
    /// one more; returns the versions it moved through.
    ///
    /// Only steps made from SQL text (`MigrationStep(_:sql:)`) run on any engine; a pending
    /// step written as a block on a `Connection` is a `.migrationFailed` error. Each
    /// transaction holds off other instances' schema changes
    /// (``DatabaseTransaction/serializeSchemaChanges()``) and re-reads the stored version, so
    /// instances that start together apply each step exactly once.
    ///
    /// The stored version lives in the table `persistance_schema_version`, as on a
    /// `Connection`. A database without it is brand new when none of `tables` exists yet
    /// (then it is stamped with ``latestVersion`` and runs no step: the tables are created
    /// from their current declarations), else it is at ``initialVersion``.
    @discardableResult
    nonisolated(nonsending) public func migrate(
        _ database: some AsyncDatabase, reconciling tables: [any DeclaredTable] = []
    ) async throws -> [String] {
        try validate()
        var applied: [String] = []
        while let version = try await database.write({ tx in try await stepUp(in: tx, tables: tables) }) {
            applied.append(version)
        }
        try await database.write { tx in try await Self.reconcile(tables, in: tx) }
        return applied
    }

    /// Runs every pending step, then reconciles `tables`, all inside `tx`; returns the
    /// versions it moved through. See `migrate(_:reconciling:)`.
    @discardableResult
    nonisolated(nonsending) public func migrate(
        in tx: some DatabaseTransaction, reconciling tables: [any DeclaredTable] = []
    ) async throws -> [String] {
        try validate()
        var applied: [String] = []
        while let version = try await stepUp(in: tx, tables: tables) {
            applied.append(version)
        }
        try await Self.reconcile(tables, in: tx)
        return applied
    }

    /// The version stored in the database, or nil when it has none yet.
    nonisolated(nonsending) public func storedVersion(in tx: some DatabaseTransaction) async throws -> String? {
        guard try await tx.tableExists(SchemaVersionTable.name) else { return nil }
        let table = try tx.dialect.quotedIdentifier(SchemaVersionTable.name)
        guard let row = try await tx.fetchOne("SELECT version FROM \(table) WHERE id = 1", []) else {
            throw DatabaseError.unknownSchemaVersion("the table \(SchemaVersionTable.name) holds no version")
        }
        return try row.value(at: 0, as: String.self)
    }

    /// Runs the next pending step and stores its version, in `tx`, other schema changes held
    /// off; returns that version, or nil when there is nothing to do.
    nonisolated(nonsending) private func stepUp(
        in tx: some DatabaseTransaction, tables: [any DeclaredTable]
    ) async throws -> String? {
        try await tx.serializeSchemaChanges()
        let index: Int
        if let stored = try await storedVersion(in: tx) {
            index = try self.index(ofStored: stored)
        } else if try await Self.isBrandNew(tables, in: tx) {
            try await Self.storeVersion(latestVersion, in: tx)
            return nil
        } else {
            try await Self.storeVersion(initialVersion, in: tx)
            index = 0
        }
        guard index < steps.count else { return nil }
        let step = steps[index]
        guard let statements = step.statements else {
            throw DatabaseError(
                kind: .migrationFailed,
                message: "migrating up to version \"\(step.version)\" needs a Connection: only steps made from SQL "
                    + "text (MigrationStep(_:sql:)) run on any engine")
        }
        do {
            for sql in statements {
                try await tx.execute(sql, [])
            }
        } catch {
            throw DatabaseError.migrationFailed("migrating up to version \"\(step.version)\"", underlying: error)
        }
        try await Self.storeVersion(step.version, in: tx)
        return step.version
    }

    /// Whether a database without a stored version is brand new: tables are declared and
    /// none of them exists yet.
    nonisolated(nonsending) private static func isBrandNew(
        _ tables: [any DeclaredTable], in tx: some DatabaseTransaction
    ) async throws -> Bool {
        guard !tables.isEmpty else { return false }
        for table in tables where try await tx.tableExists(table.name) {
            return false
        }
        return true
    }

    /// Stores `version`, creating the version table if needed.
    nonisolated(nonsending) private static func storeVersion(_ version: String, in tx: some DatabaseTransaction) async throws {
        let dialect = tx.dialect
        let table = try dialect.quotedIdentifier(SchemaVersionTable.name)
        try await tx.execute(
            "CREATE TABLE IF NOT EXISTS \(table) (id INTEGER PRIMARY KEY CHECK (id = 1), version TEXT NOT NULL)", [])
        let changed = try await tx.execute(
            "UPDATE \(table) SET version = \(dialect.numberedPlaceholder(1)) WHERE id = 1", [.text(version)])
        if changed == 0 {
            try await tx.execute(
                "INSERT INTO \(table) (id, version) VALUES (1, \(dialect.numberedPlaceholder(1)))", [.text(version)])
        }
    }

    /// Reconciles each of `tables` in `tx`, other schema changes held off.
    nonisolated(nonsending) static func reconcile(
        _ tables: [any DeclaredTable], in tx: some DatabaseTransaction
    ) async throws {
        guard !tables.isEmpty else { return }
        try await tx.serializeSchemaChanges()
        for table in tables {
            try await table.declaredSchema.reconcile(in: tx)
        }
    }
}
