extension Query {
    /// Deletes every row the query matches and returns how many were deleted.
    ///
    /// The filters choose the rows; with a limit or offset, the order and limit choose among
    /// them (through a rowid subquery). The selection is ignored. A distinct or grouped query
    /// throws `invalidQuery`.
    @discardableResult
    public func deleteAll(_ conn: Connection) throws -> Int {
        try clauses.deleteSQL().execute(in: conn)
    }

    /// Sets columns of every row the query matches and returns how many rows were updated.
    /// Rows are chosen as in `deleteAll(_:)`. No assignment updates nothing and returns 0.
    /// ```swift
    /// try query.filter(Column("name") == "Ann").updateAll(conn, Column("score").set(to: Column("score") + 1))
    /// ```
    @discardableResult
    public func updateAll(_ conn: Connection, _ assignments: ColumnAssignment...) throws -> Int {
        try updateAll(conn, assignments)
    }

    /// Sets columns of every row the query matches and returns how many rows were updated.
    /// Rows are chosen as in `deleteAll(_:)`. An empty list updates nothing and returns 0.
    @discardableResult
    public func updateAll(_ conn: Connection, _ assignments: [ColumnAssignment]) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        return try clauses.updateSQL(assignments).execute(in: conn)
    }
}
