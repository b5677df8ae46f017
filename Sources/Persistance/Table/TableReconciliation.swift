/// One declared table brought to the file when the database opens (see ``SchemaReconciler``):
/// checked against what the file holds, completed where that is safe, refused otherwise.
struct TableReconciliation {
    let declared: TableSchema
    /// An in-memory connection where the declaration is created to see it as SQLite reports it.
    let scratch: Connection

    func run(in connection: Connection) throws {
        switch try SQLiteCatalog.object(named: declared.name, in: connection) {
        case nil:
            try connection.execute(declared.createTableSQL)
        case let (type, _, _)? where type != "table":
            throw mismatch(nil, "the name is taken by a \(type)")
        case let (_, _, stored)?:
            try reconcileColumns(of: stored, in: connection)
            try reconcileForeignKeys(of: stored, in: connection)
        }
        for (index, sql) in zip(declared.indexes, declared.createIndexSQL) {
            try reconcile(index, createdBy: sql, in: connection)
        }
    }

    // MARK: Columns

    private func reconcileColumns(of stored: String, in connection: Connection) throws {
        let expected = try expectedColumns()
        let file = try TableColumnInfo.fetch(table: stored, in: connection)
        let fileByName = Dictionary(file.map { (RowColumns.fold($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        let expectedNames = Set(expected.map { RowColumns.fold($0.name) })
        for column in expected {
            if let found = fileByName[RowColumns.fold(column.name)] {
                try check(found, against: column)
            } else {
                try checkAddable(column)
            }
        }
        for column in file where !expectedNames.contains(RowColumns.fold(column.name)) {
            if column.primaryKeyPosition > 0 {
                throw mismatch(column.name, "the file's primary key includes it; the declaration does not have it")
            }
            if column.isNotNull && column.defaultSQL == nil {
                throw mismatch(
                    column.name, "the file requires a value (NOT NULL without a default) but the declaration no longer "
                        + "has the column; drop it in a migration step (dropColumn)")
            }
        }

        let missing = expected.filter { fileByName[RowColumns.fold($0.name)] == nil }
        let inFileOrder = file.map { RowColumns.fold($0.name) }
        let appends = expected.map { RowColumns.fold($0.name) } == inFileOrder + missing.map { RowColumns.fold($0.name) }
        let unique = missing.first { declaredColumn($0).isUnique }
        if !appends || unique != nil, try matchesExactly(file, expected, table: stored, in: connection) {
            return try rebuildInDeclaredOrder(stored, copying: file, in: connection)
        }
        if let unique {
            throw mismatch(
                unique.name, "SQLite cannot add a UNIQUE column to a table that otherwise differs from its "
                    + "declaration; add it in a migration step")
        }
        for column in missing {
            try connection.execute(AlterTableDialect.current.addColumnSQL(table: stored, column: declaredColumn(column)))
        }
    }

    /// The declared columns as SQLite reports them once created.
    private func expectedColumns() throws -> [TableColumnInfo] {
        try scratch.execute(declared.createTableSQL)
        defer { try? scratch.execute("DROP TABLE \(declared.quotedName)") }
        return try TableColumnInfo.fetch(table: declared.name, in: scratch)
    }

    // MARK: Foreign keys

    /// Throws unless the file's table has exactly the declared foreign keys: SQLite cannot
    /// add, drop or change one on an existing column without rebuilding the table.
    private func reconcileForeignKeys(of stored: String, in connection: Connection) throws {
        try scratch.execute(declared.createTableSQL)
        defer { try? scratch.execute("DROP TABLE \(declared.quotedName)") }
        let expected = try Self.foreignKeys(of: declared.name, in: scratch)
        let file = try Self.foreignKeys(of: stored, in: connection)
        guard expected != file else { return }
        let column = expected.symmetricDifference(file).map(\.from).sorted().first
        func describe(_ keys: Set<StoredForeignKey>) -> String {
            let described = keys.filter { $0.from == column }.map(\.description).sorted()
            return described.isEmpty ? "none" : described.joined(separator: ", ")
        }
        throw mismatch(
            column, "its foreign key differs: declared \(describe(expected)), the file has \(describe(file)); "
                + "SQLite changes a foreign key only by rebuilding the table: do it in a migration step")
    }

    /// A foreign key as `PRAGMA foreign_key_list` reports it, names folded.
    private struct StoredForeignKey: Hashable {
        var from: String, table: String, to: String?, onUpdate: String, onDelete: String

        var description: String {
            "REFERENCES \(table)\(to.map { "(\($0))" } ?? "") ON DELETE \(onDelete) ON UPDATE \(onUpdate)"
        }
    }

    private static func foreignKeys(of table: String, in connection: Connection) throws -> Set<StoredForeignKey> {
        Set(try SQLiteCatalog.foreignKeyRows(of: table, in: connection).map { row in
            StoredForeignKey(
                from: RowColumns.fold(try row.value(named: "from")), table: RowColumns.fold(try row.value(named: "table")),
                to: (try row.value(named: "to") as String?).map(RowColumns.fold),
                onUpdate: try row.value(named: "on_update"), onDelete: try row.value(named: "on_delete"))
        })
    }

    /// The declaration of a column of ``expectedColumns()``, which lists them in declared order.
    private func declaredColumn(_ column: TableColumnInfo) -> ColumnDefinition {
        declared.columns[column.position]
    }

    /// Throws when the file's `found` cannot hold what the declaration's `column` stores.
    private func check(_ found: TableColumnInfo, against column: TableColumnInfo) throws {
        if found.affinity != column.affinity {
            throw mismatch(
                column.name, "declared \(column.type), the file has \(found.type.isEmpty ? "no type" : found.type) "
                    + "(\(found.affinity.rawValue) affinity); change it in a migration step (changeColumnType)")
        }
        if (found.primaryKeyPosition > 0) != (column.primaryKeyPosition > 0) {
            throw mismatch(
                column.name, column.primaryKeyPosition > 0
                    ? "declared the primary key, which it is not in the file"
                    : "it is the file's primary key, which the declaration does not say")
        }
        if found.isNotNull && !column.isNotNull && column.defaultSQL == nil && found.primaryKeyPosition == 0 {
            throw mismatch(
                column.name, "the file requires a value (NOT NULL) but the declaration allows NULL without a default, "
                    + "which the table would write as NULL")
        }
    }

    /// Throws unless SQLite can add `column` to rows that exist.
    private func checkAddable(_ column: TableColumnInfo) throws {
        if column.primaryKeyPosition > 0 {
            throw mismatch(column.name, "the declared primary key is missing from the file")
        }
        if column.isNotNull && column.defaultSQL == nil {
            throw mismatch(
                column.name, "missing from the file, and NOT NULL without a default cannot be added to existing rows; "
                    + "give it a default or add it in a migration step")
        }
    }

    /// Whether the file's table is its declaration but for missing columns and the order:
    /// same columns and types, no undeclared column, no foreign key (a rebuild from the
    /// declaration would lose it).
    private func matchesExactly(
        _ file: [TableColumnInfo], _ expected: [TableColumnInfo], table: String, in connection: Connection
    ) throws -> Bool {
        func shape(_ column: TableColumnInfo) -> TableColumnInfo {
            var column = column
            column.position = 0
            column.name = RowColumns.fold(column.name)
            return column
        }
        let expectedShapes = Set(expected.map(shape))
        guard file.allSatisfy({ expectedShapes.contains(shape($0)) }) else { return false }
        return try SQLiteCatalog.foreignKeyRows(of: table, in: connection).isEmpty
    }

    /// Rebuilds the table from its declaration, copying the columns the file has.
    private func rebuildInDeclaredOrder(_ table: String, copying file: [TableColumnInfo], in connection: Connection) throws {
        try TableRebuild(
            table: table, createSQL: declared.createTableSQL(as:),
            copiedColumns: file.map { column in
                (declared.slot(of: column.name).map { declared.columns[$0].name } ?? column.name, column.name)
            }
        ).run(in: connection, dialect: .current)
    }

    // MARK: Indexes

    private func reconcile(_ index: IndexDefinition, createdBy sql: String, in connection: Connection) throws {
        guard let (type, table, stored) = try SQLiteCatalog.object(named: index.name, in: connection) else {
            do {
                return try connection.execute(sql)
            } catch let error as DatabaseError where error.resultCode == .constraint {
                throw mismatch(nil, "unique index \"\(index.name)\" cannot be created: \(error.message)")
            }
        }
        guard type == "index", RowColumns.fold(table) == RowColumns.fold(declared.name) else {
            throw mismatch(nil, "the name of index \"\(index.name)\" is taken by the \(type) \"\(stored)\" of table \"\(table)\"")
        }
        let found = try TableIndexInfo.fetch(table: table, in: connection).first { $0.name == stored }
        let columns = try TableIndexInfo.columns(ofIndex: stored, in: connection)
        guard columns.map(RowColumns.fold) == index.columns.map(RowColumns.fold), found?.isUnique == index.isUnique else {
            func describe(_ columns: [String], _ unique: Bool) -> String {
                "(\(columns.joined(separator: ", ")))\(unique ? " UNIQUE" : "")"
            }
            throw mismatch(
                nil, "index \"\(index.name)\" is on \(describe(columns, found?.isUnique ?? false)) in the file, "
                    + "declared on \(describe(index.columns, index.isUnique)); drop it in a migration step")
        }
    }

    // MARK: Helpers

    private func mismatch(_ column: String?, _ reason: String) -> DatabaseError {
        .schemaMismatch(table: declared.name, column: column, reason)
    }
}
