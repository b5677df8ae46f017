/// A statement the query builder rendered: its SQL text and the values it binds, ready to
/// run through the connection's statement cache.
struct RenderedSQL {
    /// The SQL text: identifiers quoted, every value a parameter.
    let sql: String
    let arguments: SQLArguments

    /// The values of the `?` parameters, in the order they appear.
    var values: [DatabaseValue] { arguments.values }

    /// The statement for the SQL, from `conn`'s statement cache, with every parameter bound.
    func statement(in conn: Connection) throws -> Statement {
        let statement = try conn.cachedStatement(sql)
        try arguments.bind(to: statement)
        return statement
    }

    /// A cursor over the first column of the statement's rows, converted to `T`.
    func valueCursor<T: DatabaseValueConvertible>(in conn: Connection, as type: T.Type) throws -> Cursor<T> {
        Cursor(statement: try statement(in: conn)) { statement in try statement.value(at: 0, as: T.self) }
    }

    /// Runs the statement to completion and returns the number of rows it changed.
    func execute(in conn: Connection) throws -> Int {
        let statement = try statement(in: conn)
        defer { statement.reset() }
        while try statement.step() {}
        return conn.changes
    }
}
