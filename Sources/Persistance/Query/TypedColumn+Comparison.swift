// Comparisons of a typed column with a value of its own type, with another column of the
// same type, or with any expression. A value of another type does not compile. Comparing
// an optional column with nil for equality renders `IS NULL` / `IS NOT NULL`.

/// `lhs = ?` with `rhs` bound, or `lhs IS NULL` when `rhs` is nil.
public func == <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, lhs.valueExpression(rhs), negated: false)
}

/// `lhs <> ?` with `rhs` bound, or `lhs IS NOT NULL` when `rhs` is nil.
public func != <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, lhs.valueExpression(rhs), negated: true)
}

/// `lhs < ?` with `rhs` bound.
public func < <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " < ", lhs.valueExpression(rhs))
}

/// `lhs <= ?` with `rhs` bound.
public func <= <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " <= ", lhs.valueExpression(rhs))
}

/// `lhs > ?` with `rhs` bound.
public func > <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " > ", lhs.valueExpression(rhs))
}

/// `lhs >= ?` with `rhs` bound.
public func >= <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " >= ", lhs.valueExpression(rhs))
}

/// `lhs = rhs` for two columns of the same type.
public func == <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs` for two columns of the same type.
public func != <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs < rhs` for two columns of the same type.
public func < <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " < ", rhs.sqlExpression)
}

/// `lhs > rhs` for two columns of the same type.
public func > <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " > ", rhs.sqlExpression)
}

/// `lhs = rhs` with any expression (the escape hatch: `Column`, functions, arithmetic).
public func == <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs, negated: false)
}

/// `lhs <> rhs` with any expression.
public func != <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs, negated: true)
}

/// `lhs < rhs` with any expression.
public func < <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " < ", rhs)
}

/// `lhs > rhs` with any expression.
public func > <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(lhs.sqlExpression, " > ", rhs)
}
