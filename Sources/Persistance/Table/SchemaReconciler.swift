/// Brings a database file to its declared tables when the writer opens, together with the
/// migrator, in one `IMMEDIATE` transaction:
///
/// 1. the migrator's pending steps run (a brand-new file is stamped with the latest version
///    and runs none), on the file as it was, so a step that renames a column finds the old
///    column and never one this reconciliation added;
/// 2. each declared table is checked against the file: anything that cannot be fixed safely
///    throws `.schemaMismatch`, and the transaction rolls back, leaving the file as it was;
/// 3. each declared table is completed: created with its indexes when missing; otherwise the
///    declared columns the file lacks are added (`ADD COLUMN` when they come last and SQLite
///    can add them; a rebuild in the declared order when the file's table otherwise matches
///    its declaration exactly) and missing indexes created;
/// 4. foreign keys are checked (enforcement is off while tables change).
struct SchemaReconciler {
    let tables: [TableSchema]
    let migrator: Migrator?

    init(tables: [any DeclaredTable], migrator: Migrator?) throws {
        self.tables = tables.map(\.declaredSchema)
        self.migrator = migrator
        var names = Set<String>()
        for table in self.tables {
            if let error = table.declarationError { throw error }
            if !names.insert(RowColumns.fold(table.name)).inserted {
                throw DatabaseError.configuration("table \"\(table.name)\" is declared twice")
            }
        }
    }

    func run(_ connection: Connection) throws {
        try ForeignKeys.suspendingEnforcement(connection) {
            try connection.transaction(.immediate) {
                try migrator?.migrate(connection)
                let scratch = try Connection.inMemory()
                defer { try? scratch.close() }
                for table in tables {
                    try TableReconciliation(declared: table, scratch: scratch).run(in: connection)
                }
                try ForeignKeys.check(connection)
            }
        }
    }
}
