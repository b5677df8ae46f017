/// SQLite's documented procedure for any change to a table (section 7 of "ALTER TABLE"): a
/// new table in the new shape, the rows copied (with their row ids and the `AUTOINCREMENT`
/// counter), the old table dropped, the new one renamed, its indexes and triggers recreated,
/// foreign keys checked — in one savepoint, so it happens entirely or not at all.
struct TableRebuild {
    /// The table rebuilt.
    let table: String
    /// The new table's `CREATE TABLE`, given the quoted name to create it under.
    let createSQL: (_ quotedName: String) throws -> String
    /// The columns copied: each column of the new table with the old column it takes its value from.
    let copiedColumns: [(target: String, source: String)]
    /// The `CREATE INDEX` or `CREATE TRIGGER` to run for one of the table's, after the rebuild.
    var recreatedSQL: (String) throws -> String = { $0 }
    /// Runs after the rows are copied, given the quoted name of the new table.
    var afterCopy: ((Connection, _ quotedName: String) throws -> Void)?

    /// The name the new table has until it replaces the old one.
    var temporaryName: String { "persistance_rebuild_\(table)" }

    /// Rebuilds the table. Run it with foreign key enforcement suspended (see
    /// ``ForeignKeys/suspendingEnforcement(_:rebuilding:_:)``).
    func run(in connection: Connection, dialect: AlterTableDialect) throws {
        try connection.savepoint { try rebuild(in: connection, dialect: dialect) }
    }

    private func rebuild(in connection: Connection, dialect: AlterTableDialect) throws {
        let quotedTable = TableSchema.quote(table)
        let quotedTemporary = TableSchema.quote(temporaryName)
        if try Self.objectExists(temporaryName, in: connection) {
            throw DatabaseError.invalidSchemaChange("cannot rebuild table \"\(table)\": a table \"\(temporaryName)\" is in the way")
        }
        let dependents = try connection.fetchAll(
            String.self,
            "SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? COLLATE NOCASE "
                + "AND sql IS NOT NULL ORDER BY type, name", [table]
        ).map(recreatedSQL)
        let sequence = try autoincrementSequence(in: connection)
        let hasRowID = (try? connection.prepare("SELECT rowid FROM \(quotedTable)")) != nil

        try connection.execute(try createSQL(quotedTemporary))
        let targets = (hasRowID ? ["rowid"] : []) + copiedColumns.map { TableSchema.quote($0.target) }
        let sources = (hasRowID ? ["rowid"] : []) + copiedColumns.map { TableSchema.quote($0.source) }
        try connection.execute(
            "INSERT INTO \(quotedTemporary) (\(targets.joined(separator: ", "))) "
                + "SELECT \(sources.joined(separator: ", ")) FROM \(quotedTable)")
        try afterCopy?(connection, quotedTemporary)
        try connection.execute("DROP TABLE \(quotedTable)")
        try renameTemporaryTable(in: connection, dialect: dialect)
        if let sequence {
            try connection.execute("DELETE FROM sqlite_sequence WHERE name = ?", [table])
            try connection.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [table, sequence])
        }
        for sql in dependents {
            try connection.execute(sql)
        }
        try ForeignKeys.check(connection)
    }

    /// Renames the new table to the old name, with `legacy_alter_table` on where it exists so
    /// that SQLite renames only the table (3.26+ would otherwise re-check every view and trigger).
    private func renameTemporaryTable(in connection: Connection, dialect: AlterTableDialect) throws {
        let wasLegacy = dialect.hasLegacyAlterTable
            ? try connection.fetchOne(Bool.self, "PRAGMA legacy_alter_table") ?? false : true
        if let sql = dialect.legacyAlterTableSQL(true), !wasLegacy { try connection.execute(sql) }
        defer {
            if let sql = dialect.legacyAlterTableSQL(false), !wasLegacy { try? connection.execute(sql) }
        }
        try connection.execute(dialect.renameTableSQL(temporaryName, to: table))
    }

    /// The table's `AUTOINCREMENT` counter, if it has one.
    private func autoincrementSequence(in connection: Connection) throws -> Int64? {
        guard try Self.objectExists("sqlite_sequence", in: connection) else { return nil }
        return try connection.fetchOne(Int64.self, "SELECT seq FROM sqlite_sequence WHERE name = ?", [table])
    }

    private static func objectExists(_ name: String, in connection: Connection) throws -> Bool {
        try connection.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = ? COLLATE NOCASE", [name]) ?? 0 > 0
    }
}
