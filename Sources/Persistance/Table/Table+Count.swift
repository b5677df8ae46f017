extension Table {
    /// The number of rows.
    public func count(in connection: Connection) throws -> Int {
        try count(sql: "SELECT count(*) FROM \(schema.quotedName)", in: connection)
    }

    /// The number of rows for which `fragment`, SQL that follows `WHERE`, holds:
    /// `count(where: "age IS NULL", in: conn)`.
    public func count(
        where fragment: String, _ arguments: StatementArguments = StatementArguments(), in connection: Connection
    ) throws -> Int {
        try SQLFragment.validate(fragment)
        return try count(sql: "SELECT count(*) FROM \(schema.quotedName) WHERE \(fragment)", arguments, in: connection)
    }

    /// The integer in the first column of the first row of `sql`, a whole `SELECT`; 0 when
    /// there is no row or it is NULL.
    public func count(
        sql: String, _ arguments: StatementArguments = StatementArguments(), in connection: Connection
    ) throws -> Int {
        try onFirstUse(in: connection) {
            try connection.fetchOne(Int?.self, sql, arguments).flatMap { $0 } ?? 0
        }
    }

    /// The number of rows whose `column` is `value` (NULL when `value` is nil).
    public func count<Value>(
        where column: TypedColumn<Element, Value>, equals value: Value, in connection: Connection
    ) throws -> Int {
        try count(where: "\(schema.columnReference(column.name)) IS ?", [try column.encode(value)], in: connection)
    }

    /// The number of rows for which `predicate` holds: `count(where: Player.columns.score > 5, in: conn)`.
    public func count(where predicate: SQLExpression, in connection: Connection) throws -> Int {
        try onFirstUse(in: connection) { try query().filter(predicate).fetchCount(connection) }
    }
}
