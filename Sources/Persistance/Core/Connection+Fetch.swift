extension Connection {
    /// A cursor over the rows of `sql`, read lazily in constant memory.
    public func fetchCursor(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> Cursor<Row> {
        try cursor(sql, arguments, decode: Row.init(statement:))
    }

    /// Every row of `sql`.
    public func fetchAll(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try withRows(of: sql, arguments) { statement in try statement.collectRecords(Row.rowDecoder(for: statement)) }
    }

    /// The first row of `sql`, or nil when there is none.
    public func fetchOne(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try withRows(of: sql, arguments) { statement in try statement.step() ? Row(statement: statement) : nil }
    }

    /// A cursor over the first column of each row of `sql`, converted to `T`.
    public func fetchCursor<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments = StatementArguments()
    ) throws -> Cursor<T> {
        try cursor(sql, arguments) { statement in try statement.value(at: 0, as: T.self) }
    }

    /// The first column of every row of `sql`, converted to `T`.
    @inlinable
    public func fetchAll<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments = StatementArguments()
    ) throws -> [T] {
        try withRows(of: sql, arguments) { statement in try statement.collectRecords(FirstColumnDecoder<T>()) }
    }

    /// The first column of the first row of `sql`, converted to `T`; nil when there is no row.
    /// Ask for an optional type (`String?.self`) to read a NULL without an error.
    @inlinable
    public func fetchOne<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: StatementArguments = StatementArguments()
    ) throws -> T? {
        try withRows(of: sql, arguments) { statement in try statement.step() ? statement.value(at: 0, as: T.self) : nil }
    }

    /// A cursor over `sql` that turns each row into an element with `decode`.
    /// The statement comes from the cache; the cursor holds it until it is exhausted or released.
    public func cursor<Element>(
        _ sql: String, _ arguments: StatementArguments = StatementArguments(),
        decode: @escaping (Statement) throws -> Element
    ) throws -> Cursor<Element> {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        return Cursor(statement: statement, decode: decode)
    }

    /// Runs `read` with the cached statement of `sql`, bound to `arguments`, and resets the
    /// statement when it returns: the one-shot fetches step it directly, with no cursor.
    /// `read` must not run statements on the connection.
    @inlinable
    func withRows<Result>(
        of sql: String, _ arguments: StatementArguments, _ read: (Statement) throws -> Result
    ) throws -> Result {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try read(statement)
    }
}
