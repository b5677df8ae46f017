/// Column changes that SQLite's `ALTER TABLE` cannot make on every engine, for migration
/// steps: each is atomic (one savepoint), and runs natively where the engine can
/// (`RENAME COLUMN` from SQLite 3.25, `DROP COLUMN` from 3.35) and otherwise rebuilds the
/// table the way SQLite documents (new table, copy, drop, rename, indexes and triggers
/// recreated, foreign keys checked), keeping row ids and the `AUTOINCREMENT` counter.
///
/// ```swift
/// MigrationStep("2") { conn in
///     try conn.renameColumn("name", to: "title", inTable: "note")
///     try conn.dropColumn("legacy", fromTable: "note")
///     try conn.changeColumnType("score", inTable: "note", to: .real) { value in
///         guard case .text(let text) = value else { return value }
///         return Double(text).map(DatabaseValue.real) ?? .null
///     }
/// }
/// ```
///
/// A rebuild drops the old table: with foreign keys enforced and inside a transaction (a
/// migration step runs in one), a table that other tables reference cannot be rebuilt.
/// `Database` and `DatabaseConfiguration.openWriter()` run migration steps with enforcement
/// off and check foreign keys before they commit, so there it always works.
extension Connection {
    /// Renames `column` of `table` to `newName`, in the table, its indexes and its triggers.
    ///
    /// - Throws: `.invalidSchemaChange` when the table or column does not exist, `newName` is
    ///   empty or taken, or (on engines before SQLite 3.25) a trigger of the table uses the column.
    public func renameColumn(_ column: String, to newName: String, inTable table: String) throws {
        try renameColumn(column, to: newName, inTable: table, dialect: .current)
    }

    /// Drops `column` of `table`, with its values.
    ///
    /// - Throws: `.invalidSchemaChange` when the table or column does not exist, the column is
    ///   the table's only one, or its primary key, an index, a constraint, a foreign key or a
    ///   trigger uses it (drop those first).
    public func dropColumn(_ column: String, fromTable table: String) throws {
        try dropColumn(column, fromTable: table, dialect: .current)
    }

    /// Declares `column` of `table` with the type `affinity` and rewrites each row's value with
    /// `transform` (values are stored with the new affinity's conversions either way). Always
    /// a rebuild: no engine can change a column's type in place.
    ///
    /// - Throws: `.invalidSchemaChange` when the table or column does not exist, the column is
    ///   the primary key, or the table has no row id (`WITHOUT ROWID`); whatever `transform`
    ///   throws; a constraint error when a new value breaks one (`NOT NULL`, `UNIQUE`, …).
    public func changeColumnType(
        _ column: String, inTable table: String, to affinity: ColumnDefinition.Affinity,
        transform: ((DatabaseValue) throws -> DatabaseValue)? = nil
    ) throws {
        try changeColumnType(column, inTable: table, to: affinity, transform: transform, dialect: .current)
    }

    // MARK: With a dialect, for tests on both code paths

    func renameColumn(_ column: String, to newName: String, inTable table: String, dialect: AlterTableDialect) throws {
        try changingSchema(rebuilding: dialect.hasRenameColumn ? nil : table) {
            let target = try ColumnMigrationTarget(table: table, column: column, in: self)
            if newName.isEmpty {
                throw DatabaseError.invalidSchemaChange("cannot rename column \"\(column)\" of table \"\(target.table)\" to an empty name")
            }
            if RowColumns.fold(newName) != RowColumns.fold(target.column), target.hasColumn(newName) {
                throw DatabaseError.invalidSchemaChange("table \"\(target.table)\" already has a column \"\(newName)\"")
            }
            if dialect.hasRenameColumn {
                return try execute(dialect.renameColumnSQL(table: target.table, column: target.column, to: newName))
            }
            try target.refuseTriggers(using: "rename", in: self)
            let definition = try TableDefinitionSQL(table: target.table, in: self)
            var rebuild = TableRebuild(
                table: target.table,
                createSQL: { definition.renamingColumn(target.column, to: newName, tableAs: $0) },
                copiedColumns: target.columns.map { name in
                    (RowColumns.fold(name) == RowColumns.fold(target.column) ? newName : name, name)
                })
            rebuild.recreatedSQL = { TableDefinitionSQL.renamingColumn(target.column, to: newName, inIndexSQL: $0) }
            try rebuild.run(in: self, dialect: dialect)
        }
    }

    func dropColumn(_ column: String, fromTable table: String, dialect: AlterTableDialect) throws {
        try changingSchema(rebuilding: dialect.hasDropColumn ? nil : table) {
            let target = try ColumnMigrationTarget(table: table, column: column, in: self)
            try target.refuseDrop(in: self)
            try target.refuseTriggers(using: "drop", in: self)
            if dialect.hasDropColumn {
                return try execute(dialect.dropColumnSQL(table: target.table, column: target.column))
            }
            let definition = try TableDefinitionSQL(table: target.table, in: self)
            try TableRebuild(
                table: target.table,
                createSQL: { try definition.droppingColumn(target.column, tableAs: $0) },
                copiedColumns: target.columns.filter { RowColumns.fold($0) != RowColumns.fold(target.column) }.map { ($0, $0) }
            ).run(in: self, dialect: dialect)
        }
    }

    func changeColumnType(
        _ column: String, inTable table: String, to affinity: ColumnDefinition.Affinity,
        transform: ((DatabaseValue) throws -> DatabaseValue)?, dialect: AlterTableDialect
    ) throws {
        try changingSchema(rebuilding: table) {
            let target = try ColumnMigrationTarget(table: table, column: column, in: self)
            if target.isPrimaryKey {
                throw DatabaseError.invalidSchemaChange(
                    "cannot change the type of column \"\(target.column)\" of table \"\(target.table)\": it is the primary key")
            }
            if (try? prepare("SELECT rowid FROM \(TableSchema.quote(target.table))")) == nil {
                throw DatabaseError.invalidSchemaChange(
                    "cannot change the type of a column of table \"\(target.table)\": it has no row id (WITHOUT ROWID)")
            }
            let definition = try TableDefinitionSQL(table: target.table, in: self)
            var rebuild = TableRebuild(
                table: target.table,
                createSQL: { try definition.retypingColumn(target.column, to: affinity.rawValue, tableAs: $0) },
                copiedColumns: target.columns.map { ($0, $0) })
            if let transform {
                rebuild.afterCopy = { connection, quotedNewTable in
                    let quotedColumn = TableSchema.quote(target.column)
                    let update = try connection.prepare("UPDATE \(quotedNewTable) SET \(quotedColumn) = ?1 WHERE rowid = ?2")
                    let rows = try connection.fetchCursor(
                        "SELECT rowid, \(quotedColumn) FROM \(TableSchema.quote(target.table))")
                    try rows.forEach { row in
                        try update.execute([try transform(try row.value(at: 1, as: DatabaseValue.self)), row.values[0]])
                    }
                }
            }
            try rebuild.run(in: self, dialect: dialect)
        }
    }

    /// Runs `change` atomically (one savepoint), with foreign key enforcement suspended when
    /// it may rebuild `table` (see ``ForeignKeys``).
    private func changingSchema(rebuilding table: String?, _ change: () throws -> Void) throws {
        try ForeignKeys.suspendingEnforcement(self, rebuilding: table) {
            try savepoint(change)
        }
    }
}
