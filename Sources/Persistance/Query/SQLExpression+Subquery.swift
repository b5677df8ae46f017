// Subqueries in expressions: EXISTS and IN with a query. The subquery's bare column
// references belong to its own table; to refer to an outer query's table (a correlated
// subquery) use the outer query's qualified columns, from the closures of `filter`/`join`.

extension SQLExpressible where Self == SQLExpression {
    /// `EXISTS (SELECT …)`: true when `query` returns at least one row. Negate it with `!` for
    /// `NOT EXISTS`.
    /// ```swift
    /// Team.table.query().filter { team in
    ///     .exists(Player.table.query().filter { $0.teamID == team.id && $0.score > 20 })
    /// }
    /// ```
    public static func exists(_ query: Query<some Record>) -> SQLExpression {
        SQLExpression([.text("EXISTS "), .subquery(query.clauses)], precedence: .atomic)
    }
}

extension SQLExpressible {
    /// `self IN (SELECT …)`: true when the first result column of `query` has a row equal
    /// to `self`. Select one column in `query`.
    /// ```swift
    /// Player.table.query().filter(Player.columns.teamID.in(
    ///     Team.table.query().filter(Team.columns.city == "Oslo").select(Team.columns.id)))
    /// ```
    public func `in`(_ query: Query<some Record>) -> SQLExpression {
        var pieces = sqlExpression.operand(of: .comparison)
        pieces.append(.text(" IN "))
        pieces.append(.subquery(query.clauses))
        return SQLExpression(pieces, precedence: .comparison)
    }
}

extension TypedColumn where Value: DatabaseValueConvertible {
    /// `self IN (SELECT …)` with a typed query of one column of the same type.
    public func `in`(_ query: SelectQuery<Value>) -> SQLExpression {
        SQLExpression([columnPiece, .text(" IN "), .subquery(query.clauses)], precedence: .comparison)
    }
}
