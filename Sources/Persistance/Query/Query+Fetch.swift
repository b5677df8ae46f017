extension Query {
    /// A cursor over the matching rows, decoded as `Element`, read lazily in constant memory.
    /// Use it on the connection's thread, and release it (or read it to the end) before
    /// running the same query again on the connection if you want the cached statement reused.
    public func fetchCursor(_ conn: Connection) throws -> Cursor<Element> {
        try clauses.selectSQL().cursor(in: conn) { try Element.rowDecoder(for: $0).decode }
    }

    /// Every matching row, decoded as `Element`.
    public func fetchAll(_ conn: Connection) throws -> [Element] {
        try fetchCursor(conn).collect()
    }

    /// The first matching row, decoded as `Element`, or nil when there is none. Runs the
    /// query with `LIMIT 1`.
    public func fetchOne(_ conn: Connection) throws -> Element? {
        try clauses.first.selectSQL().cursor(in: conn) { try Element.rowDecoder(for: $0).decode }.next()
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
