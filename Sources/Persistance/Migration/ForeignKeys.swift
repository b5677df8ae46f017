/// Foreign keys around schema changes, as SQLite's procedure for changing a table asks:
/// enforcement off while tables are rebuilt (so that dropping the old table fires no
/// `ON DELETE` action), then `PRAGMA foreign_key_check` before the change commits.
enum ForeignKeys {
    /// Runs `body` with foreign key enforcement off, when the connection can turn it off (not
    /// inside a transaction, where SQLite ignores the setting), and turns it back on after.
    /// Inside a transaction with enforcement on, a rebuild of `rebuiltTable` is refused when
    /// another table references it: dropping the old table would delete or block their rows.
    static func suspendingEnforcement<T>(
        _ connection: Connection, rebuilding rebuiltTable: String? = nil, _ body: () throws -> T
    ) throws -> T {
        guard try connection.fetchOne(Bool.self, "PRAGMA foreign_keys") == true else { return try body() }
        guard connection.isInTransaction else {
            try connection.execute("PRAGMA foreign_keys = OFF")
            defer { try? connection.execute("PRAGMA foreign_keys = ON") }
            return try body()
        }
        if let rebuiltTable, let child = try referencingTable(of: rebuiltTable, in: connection) {
            throw DatabaseError.invalidSchemaChange(
                "cannot rebuild table \"\(rebuiltTable)\": table \"\(child)\" references it and foreign keys cannot be "
                    + "turned off inside a transaction; open the connection with foreignKeys = false, or change it "
                    + "outside a transaction")
        }
        return try body()
    }

    /// Throws when a row breaks a foreign key (`PRAGMA foreign_key_check`), naming the table.
    /// Does nothing when the connection was opened without foreign keys.
    static func check(_ connection: Connection) throws {
        guard connection.options.foreignKeys, let violation = try connection.fetchOne("PRAGMA foreign_key_check") else {
            return
        }
        let table: String = try violation.value(at: 0)
        let parent: String = try violation.value(at: 2)
        throw DatabaseError(
            kind: .sqlite, extendedResultCode: .constraintForeignKey,
            message: "FOREIGN KEY constraint failed: a row of table \"\(table)\" references a missing row of \"\(parent)\"",
            sql: "PRAGMA foreign_key_check")
    }

    /// A table other than `table` whose foreign keys reference it, if any.
    private static func referencingTable(of table: String, in connection: Connection) throws -> String? {
        let tables = try connection.fetchAll(
            String.self, "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> ? COLLATE NOCASE", [table])
        for candidate in tables {
            let keys = try connection.fetchAll("PRAGMA foreign_key_list(\(TableSchema.quote(candidate)))")
            if try keys.contains(where: { RowColumns.fold(try $0.value(named: "table")) == RowColumns.fold(table) }) {
                return candidate
            }
        }
        return nil
    }
}
