extension Query {
    /// A cursor over the matching rows, decoded as `Element`, read lazily in constant memory.
    /// Use it on the connection's thread, and release it (or read it to the end) before
    /// running the same query again on the connection if you want the cached statement reused.
    /// Inlinable, so that the cursor's loop is specialized for the record type in the caller's module.
    @inlinable
    public func fetchCursor(_ conn: Connection) throws -> Cursor<Element> {
        let statement = try selectStatement(in: conn, limitedToFirst: false)
        do {
            return Cursor(statement: statement, decode: try Element.rowDecoder(for: statement).decode)
        } catch {
            statement.reset()
            throw error
        }
    }

    /// Every matching row, decoded as `Element`. Inlinable, like the table's finds, so that
    /// the loop is specialized for the record type in the caller's module.
    @inlinable
    public func fetchAll(_ conn: Connection) throws -> [Element] {
        let expectedCount = expectedRowCount
        return try withSelectStatement(in: conn, limitedToFirst: false) { statement, decoder in
            try statement.collectRecords(decoder, expectedCount: expectedCount)
        }
    }

    /// The most rows a fetch is known to return when that is few: the query's `LIMIT` up to
    /// 64 (the array of records is reserved for them at once), else 0.
    @usableFromInline
    var expectedRowCount: Int {
        guard let limit = clauses.limit, limit > 1 else { return 0 }
        return Swift.min(limit, 64)
    }

    /// The first matching row, decoded as `Element`, or nil when there is none. Runs the
    /// query with `LIMIT 1`.
    @inlinable
    public func fetchOne(_ conn: Connection) throws -> Element? {
        try withSelectStatement(in: conn, limitedToFirst: true) { statement, decoder in
            try statement.step() ? try decoder.decode(statement) : nil
        }
    }

    /// Runs `read` with the query's `SELECT` (from the statement cache, bound) and the record
    /// decoder for it; resets the statement when done. `read` must not run statements on `conn`.
    @inlinable
    func withSelectStatement<Result>(
        in conn: Connection, limitedToFirst: Bool, _ read: (Statement, Element.RowDecoder) throws -> Result
    ) throws -> Result {
        let statement = try selectStatement(in: conn, limitedToFirst: limitedToFirst)
        defer { statement.reset() }
        return try read(statement, try Element.rowDecoder(for: statement))
    }

    /// The query's `SELECT` statement, from `conn`'s statement cache, with every value bound.
    /// The clauses render in place (choosing between `clauses.first` and `clauses` would copy
    /// them for every fetch).
    @usableFromInline
    func selectStatement(in conn: Connection, limitedToFirst: Bool) throws -> Statement {
        try clauses.selectStatement(in: conn, limitedToFirst: limitedToFirst)
    }

    /// A cursor over the first column of the matching rows, converted to `T`.
    public func fetchCursor<T: DatabaseValueConvertible>(_ type: T.Type, _ conn: Connection) throws -> Cursor<T> {
        try clauses.selectSQL().valueCursor(in: conn, as: T.self)
    }

    /// The first column of every matching row, converted to `T`.
    /// ```swift
    /// let names = try query.select(Column("name")).fetchAll(String.self, conn)
    /// ```
    public func fetchAll<T: DatabaseValueConvertible>(_ type: T.Type, _ conn: Connection) throws -> [T] {
        try fetchCursor(type, conn).collect()
    }

    /// The first column of the first matching row, converted to `T`; nil when there is no
    /// row. Ask for an optional type (`Double?.self`) to read a NULL without an error.
    /// ```swift
    /// let best = try query.select(SQLExpression.max(Column("score"))).fetchOne(Double?.self, conn)
    /// ```
    public func fetchOne<T: DatabaseValueConvertible>(_ type: T.Type, _ conn: Connection) throws -> T? {
        try clauses.first.selectSQL().valueCursor(in: conn, as: T.self).next()
    }

    /// The number of rows the query returns.
    public func fetchCount(_ conn: Connection) throws -> Int {
        try clauses.countSQL().valueCursor(in: conn, as: Int.self).next() ?? 0
    }

    /// Whether the query returns at least one row.
    public func fetchExists(_ conn: Connection) throws -> Bool {
        try clauses.existsSQL().valueCursor(in: conn, as: Bool.self).next() ?? false
    }
}
