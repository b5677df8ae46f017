extension Table {
    /// Deletes the row with the record's primary key; returns whether a row was deleted.
    /// A record without a primary key value is a `.missingPrimaryKey` error.
    @discardableResult
    public func delete(_ record: Element, in connection: Connection) throws -> Bool {
        try delete(contentsOf: CollectionOfOne(record), in: connection) > 0
    }

    /// Deletes the rows of `records` atomically; returns the number of rows deleted.
    @discardableResult
    public func delete(contentsOf records: some Sequence<Element>, in connection: Connection) throws -> Int {
        if let error = schema.declarationError { throw error }
        let writer = RecordWriter(schema: schema)
        let keys = try records.map { record in
            try writer.encode(record)
            return try writer.requirePrimaryKeyValue()
        }
        return try delete(primaryKeys: keys, in: connection)
    }

    /// Deletes the row whose primary key (or `rowid`, without one) is `key`; returns whether one was.
    @discardableResult
    public func delete(primaryKey key: some DatabaseValueConvertible, in connection: Connection) throws -> Bool {
        try delete(primaryKeys: CollectionOfOne(key), in: connection) > 0
    }

    /// Deletes the rows whose primary keys are among `keys`, atomically; returns the number
    /// deleted. An empty list deletes nothing and runs no SQL.
    @discardableResult
    public func delete<Key: DatabaseValueConvertible>(
        primaryKeys keys: some Sequence<Key>, in connection: Connection
    ) throws -> Int {
        let keys = try keys.map { try $0.databaseValue }
        guard !keys.isEmpty else { return 0 }
        return try onFirstUse(in: connection) {
            try connection.savepoint {
                var changes = 0
                try forEachChunk(of: keys) { placeholders, arguments in
                    changes += try deleteAll(sqlCondition: "\(schema.keyExpression) IN (\(placeholders))", arguments, in: connection)
                }
                return changes
            }
        }
    }

    /// Deletes the rows whose `column` is `value` (NULL when `value` is nil); returns the number deleted.
    @discardableResult
    public func deleteAll(
        where column: String, equals value: some DatabaseValueConvertible, in connection: Connection
    ) throws -> Int {
        try deleteAll(where: "\(schema.columnReference(column)) IS ?", [value], in: connection)
    }

    /// Deletes the rows for which `fragment`, SQL that follows `WHERE`, holds; returns the number deleted.
    @discardableResult
    public func deleteAll(
        where fragment: String, _ arguments: StatementArguments = StatementArguments(), in connection: Connection
    ) throws -> Int {
        try SQLFragment.validate(fragment)
        return try onFirstUse(in: connection) {
            try deleteAll(sqlCondition: fragment, arguments, in: connection)
        }
    }

    private func deleteAll(
        sqlCondition condition: String, _ arguments: StatementArguments, in connection: Connection
    ) throws -> Int {
        try connection.cachedStatement(schema.statements.delete(where: condition)).execute(arguments)
        return connection.changes
    }

    /// Deletes the rows whose `column` is `value` (NULL when `value` is nil); returns the number deleted.
    @discardableResult
    public func deleteAll<Value>(
        where column: TypedColumn<Element, Value>, equals value: Value, in connection: Connection
    ) throws -> Int {
        try deleteAll(where: "\(schema.columnReference(column.name)) IS ?", [try column.encode(value)], in: connection)
    }

    /// Deletes the rows for which `predicate` holds; returns the number deleted.
    @discardableResult
    public func deleteAll(where predicate: SQLExpression, in connection: Connection) throws -> Int {
        try onFirstUse(in: connection) { try query().filter(predicate).deleteAll(connection) }
    }
}
