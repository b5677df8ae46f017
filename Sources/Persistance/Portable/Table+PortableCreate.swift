extension Table {
    /// Creates the table and its indexes unless they exist (`IF NOT EXISTS`), atomically, in
    /// the transaction's engine.
    nonisolated(nonsending) public func create(in tx: some DatabaseTransaction) async throws {
        try await schema.create(in: tx)
    }

    /// Brings the table to its declaration: creates it when missing, else adds the declared
    /// columns and indexes the database lacks (see ``DatabaseTransaction/tableCatalog(_:)``),
    /// with other instances' schema changes held off (``DatabaseTransaction/serializeSchemaChanges()``).
    /// A missing column that cannot be added (a primary key, or NOT NULL without a default)
    /// is a `.schemaMismatch` error.
    nonisolated(nonsending) public func reconcile(in tx: some DatabaseTransaction) async throws {
        try await tx.serializeSchemaChanges()
        try await schema.reconcile(in: tx)
    }

    /// The table's statements in the transaction's dialect, once the table exists: the
    /// portable operations create a missing table on first use, as the `Connection` ones do.
    nonisolated(nonsending) func prepared<Transaction: DatabaseTransaction>(
        in tx: Transaction
    ) async throws -> PortableStatements<Transaction.Dialect> {
        if let error = schema.declarationError { throw error }
        let statements = schema.portableStatements.statements(of: schema, in: tx.dialect)
        if let error = statements.table.renderingError { throw error }
        let found = tx.tablesFound
        if !found.contains(name) {
            if try await !tx.tableExists(name) {
                try await schema.create(in: tx)
            } else {
                found.insert(name)
            }
        }
        return statements
    }
}

extension TableSchema {
    /// Creates the table and its indexes in one savepoint, unless they exist.
    nonisolated(nonsending) func create(in tx: some DatabaseTransaction) async throws {
        if let error = declarationError { throw error }
        let statements = portableStatements.statements(of: self, in: tx.dialect).table
        if let error = statements.renderingError { throw error }
        try await tx.savepoint { tx in
            try await tx.execute(statements.createTable, [])
            for sql in statements.createIndexes {
                try await tx.execute(sql, [])
            }
        }
    }

    /// Creates the table when missing, else adds its missing columns (`ALTER TABLE … ADD
    /// COLUMN`, in declaration order) and indexes.
    nonisolated(nonsending) func reconcile(in tx: some DatabaseTransaction) async throws {
        if let error = declarationError { throw error }
        guard let catalog = try await tx.tableCatalog(name) else { return try await create(in: tx) }
        let statements = portableStatements.statements(of: self, in: tx.dialect).table
        let stored = Set(catalog.columns.map(RowColumns.fold))
        let missing = columns.filter { !stored.contains(RowColumns.fold($0.name)) }
        for column in missing {
            if column.primaryKey != nil {
                throw DatabaseError.schemaMismatch(
                    table: name, column: column.name, "the database's table lacks the primary key column")
            }
            if column.isNotNull && column.defaultValue == nil && column.defaultExpression == nil {
                throw DatabaseError.schemaMismatch(
                    table: name, column: column.name,
                    "the database's table lacks the column, which requires a value (NOT NULL without a default); "
                        + "add it in a migration step")
            }
        }
        var quote = IdentifierQuoter(tx.dialect)
        for column in missing {
            let definition = TableStatements.columnSQL(column, &quote)
            try await tx.execute("ALTER TABLE \(statements.quotedName) ADD COLUMN \(definition)", [])
        }
        let storedIndexes = Set(catalog.indexes.map(RowColumns.fold))
        for (index, sql) in zip(indexes, statements.createIndexes) where !storedIndexes.contains(RowColumns.fold(index.name)) {
            try await tx.execute(sql, [])
        }
    }
}
