extension Table {
    /// Creates the table and its indexes unless they exist (`IF NOT EXISTS`), atomically.
    public func create(in connection: Connection) throws {
        if let error = schema.declarationError { throw error }
        try connection.savepoint {
            try connection.prepare(schema.createTableSQL).execute()
            for sql in schema.createIndexSQL {
                try connection.prepare(sql).execute()
            }
        }
        if connection.isInTransaction {
            schema.uncommittedCreations.insert(connection)
        }
    }

    /// Drops the table, with its indexes, if it exists.
    public func drop(in connection: Connection) throws {
        try connection.prepare("DROP TABLE IF EXISTS \(schema.quotedName)").execute()
    }

    /// Whether the table exists in the connection's main database.
    public func exists(in connection: Connection) throws -> Bool {
        try SQLiteCatalog.hasTable(name, in: connection)
    }

    /// Prepares a statement on the table, which fails as a missing table does: called by
    /// operations before they consume any record, so that `onFirstUse` can run them again
    /// from the start, even on a single-pass sequence.
    func touch(in connection: Connection) throws {
        _ = try connection.cachedStatement(schema.selectSQL)
    }

    /// Runs `body`; when it fails because the table does not exist yet, creates the table
    /// and its indexes and runs `body` again. Read-only connections never create. After a
    /// creation inside a transaction, the table is checked before `body` until that
    /// transaction has ended, so one rolled back cannot leave cached statements on a missing table.
    @usableFromInline
    func onFirstUse<T>(in connection: Connection, _ body: () throws -> T) throws -> T {
        if let error = schema.declarationError { throw error }
        if schema.uncommittedCreations.needsCheck(on: connection), try !exists(in: connection),
            connection.options.mode != .readOnly
        {
            try create(in: connection)
        }
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .error && connection.options.mode != .readOnly {
            guard try !exists(in: connection) else { throw error }
            try create(in: connection)
            return try body()
        }
    }
}
