// IN, BETWEEN and LIKE on a typed column, with values of the column's type; and the
// column's assignments for `Query.updateAll`.

extension TypedColumn {
    /// `self IN (?, ?, …)` with every value bound; an empty list matches no row.
    public func `in`(_ values: some Sequence<Value>) -> SQLExpression {
        var list = [DatabaseValue]()
        for value in values {
            let piece = valuePiece(value)
            guard case .value(let stored) = piece else { return SQLExpression([piece], precedence: .atomic) }
            list.append(stored)
        }
        guard !list.isEmpty else { return SQLExpression.constant(false) }
        return SQLExpression([columnPiece, .text(" IN ("), .values(list), .text(")")], precedence: .comparison)
    }

    /// `self BETWEEN ? AND ?` with both bounds bound: true when `lower <= self <= upper`.
    public func between(_ lower: Value, and upper: Value) -> SQLExpression {
        sqlExpression.between(valueExpression(lower), and: valueExpression(upper))
    }

    /// Sets this column to `value`, stored as the record stores it.
    public func set(to value: Value) -> ColumnAssignment {
        ColumnAssignment(column: name, value: valueExpression(value))
    }

    /// Sets this column to the value of `expression`, computed per row.
    public func set(to expression: some SQLExpressible) -> ColumnAssignment {
        ColumnAssignment(column: name, value: expression.sqlExpression)
    }
}

extension TypedColumn where Value: StringProtocol {
    /// `self LIKE pattern [ESCAPE escape]` (see `SQLExpressible.like(_:escape:)`).
    public func like(_ pattern: String, escape: Character? = nil) -> SQLExpression {
        sqlExpression.like(pattern, escape: escape)
    }
}

extension TypedColumn where Value == String? {
    /// `self LIKE pattern [ESCAPE escape]` (see `SQLExpressible.like(_:escape:)`).
    public func like(_ pattern: String, escape: Character? = nil) -> SQLExpression {
        sqlExpression.like(pattern, escape: escape)
    }
}
