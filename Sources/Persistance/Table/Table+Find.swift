extension Table {
    /// The record whose primary key (or `rowid`, without one) is `key`, if any.
    @inlinable
    public func find(primaryKey key: some DatabaseValueConvertible, in connection: Connection) throws -> Element? {
        try fetchFirst(schema.selectByKeySQL, in: connection) { try $0.bind(key, at: 1) }
    }

    /// The records whose primary keys are among `keys`, in no particular order; an empty
    /// list finds nothing without running SQL.
    @inlinable
    public func findAll<Key: DatabaseValueConvertible>(
        primaryKeys keys: some Sequence<Key>, in connection: Connection
    ) throws -> [Element] {
        try findAll(whereExpression: schema.keyExpression, isIn: keys, in: connection)
    }

    /// Every record, in no particular order.
    @inlinable
    public func findAll(in connection: Connection) throws -> [Element] {
        try fetchAll(schema.selectSQL, StatementArguments(), in: connection)
    }

    /// The record with the highest primary key (or `rowid`), if any.
    @inlinable
    public func findLatest(in connection: Connection) throws -> Element? {
        try fetchFirst(
            "\(schema.selectSQL) ORDER BY \(schema.keyExpression) DESC LIMIT 1", StatementArguments(), in: connection)
    }

    /// The records for which `fragment` holds, optionally without duplicate rows.
    ///
    /// The fragment is SQL that follows `WHERE` (it may end with `ORDER BY …`); pass values
    /// only as arguments, named or positional:
    /// `findAll(where: "name = :name AND age > :age", ["name": "casa", "age": 3], in: conn)`.
    @inlinable
    public func findAll(
        where fragment: String, _ arguments: StatementArguments = StatementArguments(), distinct: Bool = false,
        in connection: Connection
    ) throws -> [Element] {
        try SQLFragment.validate(fragment)
        let select = distinct ? "SELECT DISTINCT * FROM \(schema.quotedName)" : schema.selectSQL
        return try fetchAll("\(select) WHERE \(fragment)", arguments, in: connection)
    }

    /// The first record for which `fragment` holds (see `findAll(where:_:distinct:in:)`).
    @inlinable
    public func findFirst(
        where fragment: String, _ arguments: StatementArguments = StatementArguments(), in connection: Connection
    ) throws -> Element? {
        try SQLFragment.validate(fragment)
        return try fetchFirst("\(schema.selectSQL) WHERE \(fragment) LIMIT 1", arguments, in: connection)
    }

    /// The records whose `column` is `value`; a nil `value` finds the rows where it is NULL.
    @inlinable
    public func findAll(
        where column: String, equals value: some DatabaseValueConvertible, in connection: Connection
    ) throws -> [Element] {
        try fetchAll("\(schema.selectSQL) WHERE \(schema.columnReference(column)) IS ?", [value], in: connection)
    }

    /// The records whose `column` is one of `values`, in no particular order; an empty list
    /// finds nothing without running SQL.
    @inlinable
    public func findAll<Value: DatabaseValueConvertible>(
        where column: String, isIn values: some Sequence<Value>, in connection: Connection
    ) throws -> [Element] {
        try findAll(whereExpression: schema.columnReference(column), isIn: values, in: connection)
    }

    /// The records `sql`, a whole `SELECT`, returns.
    @inlinable
    public func findAll(
        sql: String, _ arguments: StatementArguments = StatementArguments(), in connection: Connection
    ) throws -> [Element] {
        try fetchAll(sql, arguments, in: connection)
    }

    @inlinable
    func findAll<Value: DatabaseValueConvertible>(
        whereExpression expression: String, isIn values: some Sequence<Value>, in connection: Connection
    ) throws -> [Element] {
        let values = try values.map { try $0.databaseValue }
        var records = [Element]()
        try forEachChunk(of: values) { placeholders, arguments in
            records += try fetchAll(
                "\(schema.selectSQL) WHERE \(expression) IN (\(placeholders))", arguments, in: connection)
        }
        return records
    }

    // MARK: Typed columns

    /// The records whose `column` is `value`, a value of the column's own type; a nil
    /// `value` finds the rows where it is NULL: `findAll(where: Player.columns.name, equals: "Ann", in: conn)`.
    @inlinable
    public func findAll<Value>(
        where column: TypedColumn<Element, Value>, equals value: Value, in connection: Connection
    ) throws -> [Element] {
        try fetchAll(
            "\(schema.selectSQL) WHERE \(schema.columnReference(column.name)) IS ?", [try column.encode(value)],
            in: connection)
    }

    /// The first record whose `column` is `value` (NULL when `value` is nil).
    @inlinable
    public func findFirst<Value>(
        where column: TypedColumn<Element, Value>, equals value: Value, in connection: Connection
    ) throws -> Element? {
        try fetchFirst(
            "\(schema.selectSQL) WHERE \(schema.columnReference(column.name)) IS ? LIMIT 1", [try column.encode(value)],
            in: connection)
    }

    /// The records whose `column` is one of `values`, in no particular order; an empty list
    /// finds nothing without running SQL.
    @inlinable
    public func findAll<Value>(
        where column: TypedColumn<Element, Value>, isIn values: some Sequence<Value>, in connection: Connection
    ) throws -> [Element] {
        try findAll(
            whereExpression: schema.columnReference(column.name), isIn: values.map(column.encode), in: connection)
    }

    /// The records for which `predicate` holds: `findAll(where: Player.columns.score > 5, in: conn)`.
    @inlinable
    public func findAll(where predicate: SQLExpression, in connection: Connection) throws -> [Element] {
        try onFirstUse(in: connection) { try query().filter(predicate).fetchAll(connection) }
    }
}
