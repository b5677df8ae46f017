/// The column a migration helper changes, checked to exist, with the names as the file spells
/// them and what else in the table uses the column.
struct ColumnMigrationTarget {
    /// The table's name as stored.
    let table: String
    /// The column's name as stored.
    let column: String
    /// Every column of the table, in order.
    let columns: [String]
    /// Whether the column is (part of) the primary key.
    let isPrimaryKey: Bool

    /// - Throws: `.invalidSchemaChange` when the table or the column does not exist.
    init(table: String, column: String, in connection: Connection) throws {
        guard let stored = try connection.fetchOne(
            String.self, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [table])
        else {
            throw DatabaseError.invalidSchemaChange("no table \"\(table)\"")
        }
        let info = try TableColumnInfo.fetch(table: stored, in: connection)
        guard let target = info.first(where: { RowColumns.fold($0.name) == RowColumns.fold(column) }) else {
            throw DatabaseError.invalidSchemaChange("table \"\(stored)\" has no column \"\(column)\"")
        }
        self.table = stored
        self.column = target.name
        columns = info.map(\.name)
        isPrimaryKey = target.primaryKeyPosition > 0
    }

    /// Whether the table has a column `name` (ASCII case-insensitive).
    func hasColumn(_ name: String) -> Bool {
        columns.contains { RowColumns.fold($0) == RowColumns.fold(name) }
    }

    /// Throws unless the column can be dropped: it is not the only column, nor in the primary
    /// key, an index (a UNIQUE constraint's too) or a foreign key.
    func refuseDrop(in connection: Connection) throws {
        func refuse(_ reason: String) -> DatabaseError {
            .invalidSchemaChange("cannot drop column \"\(column)\" of table \"\(table)\": \(reason)")
        }
        if columns.count == 1 { throw refuse("it is the only column") }
        if isPrimaryKey { throw refuse("it is the primary key") }
        for index in try TableIndexInfo.fetch(table: table, in: connection)
        where index.columns.contains(where: { RowColumns.fold($0) == RowColumns.fold(column) }) {
            throw refuse(index.origin == "c" ? "index \"\(index.name)\" uses it; drop the index first" : "it is UNIQUE")
        }
        let keys = try connection.fetchAll("PRAGMA foreign_key_list(\(TableSchema.quote(table)))")
        if try keys.contains(where: { RowColumns.fold(try $0.value(named: "from")) == RowColumns.fold(column) }) {
            throw refuse("a foreign key uses it")
        }
    }

    /// Throws when a trigger of the table names the column: a rebuild cannot rewrite trigger
    /// bodies, and a dropped column would break them.
    func refuseTriggers(using change: String, in connection: Connection) throws {
        let triggers = try connection.fetchAll(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE", [table])
        for trigger in triggers where TableDefinitionSQL.mentions(column, in: try trigger.value(named: "sql")) {
            throw DatabaseError.invalidSchemaChange(
                "cannot \(change) column \"\(column)\" of table \"\(table)\": trigger \"\(try trigger.value(named: "name", as: String.self))\" "
                    + "uses it; drop the trigger first and create it again after")
        }
    }
}
