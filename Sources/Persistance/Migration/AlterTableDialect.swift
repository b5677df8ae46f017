/// What the linked SQLite can change in a table in place, and the SQL for it: the one place
/// that knows which `ALTER TABLE` forms an engine has. SQLite 3.25 added `RENAME COLUMN`,
/// 3.35 `DROP COLUMN`; older engines (3.15 in the SQLCipher build) rebuild the table instead.
struct AlterTableDialect: Sendable {
    /// The engine's version number, e.g. `3040001`.
    let versionNumber: Int

    /// The linked engine's dialect.
    static let current = AlterTableDialect(versionNumber: SQLiteEngine.versionNumber)
    /// The dialect of an engine without any column-changing `ALTER TABLE` (before 3.25), which
    /// rebuilds tables for every change; tests use it on newer engines too.
    static let rebuilding = AlterTableDialect(versionNumber: 3_015_002)

    /// `ALTER TABLE … RENAME COLUMN` (SQLite 3.25).
    var hasRenameColumn: Bool { versionNumber >= 3_025_000 }
    /// `ALTER TABLE … DROP COLUMN` (SQLite 3.35).
    var hasDropColumn: Bool { versionNumber >= 3_035_000 }
    /// `PRAGMA legacy_alter_table` (SQLite 3.26), which a rebuild turns on while it renames
    /// the new table, so that SQLite does not re-check or rewrite the rest of the schema.
    var hasLegacyAlterTable: Bool { SQLiteEngine.versionNumber >= 3_026_000 }

    func renameColumnSQL(table: String, column: String, to newName: String) -> String {
        "ALTER TABLE \(TableSchema.quote(table)) RENAME COLUMN \(TableSchema.quote(column)) TO \(TableSchema.quote(newName))"
    }

    func dropColumnSQL(table: String, column: String) -> String {
        "ALTER TABLE \(TableSchema.quote(table)) DROP COLUMN \(TableSchema.quote(column))"
    }

    func addColumnSQL(table: String, column: ColumnDefinition) -> String {
        "ALTER TABLE \(TableSchema.quote(table)) ADD COLUMN \(TableSchema.columnSQL(column))"
    }

    func renameTableSQL(_ table: String, to newName: String) -> String {
        "ALTER TABLE \(TableSchema.quote(table)) RENAME TO \(TableSchema.quote(newName))"
    }

    /// `PRAGMA legacy_alter_table = ON|OFF`, or nil where the engine has no such setting.
    func legacyAlterTableSQL(_ on: Bool) -> String? {
        hasLegacyAlterTable ? "PRAGMA legacy_alter_table = \(on ? "ON" : "OFF")" : nil
    }
}
