// Comparisons of a typed column with a value of its own type, with another column of the
// same type, or with any expression. A value of another type does not compile. Comparing
// an optional column with nil for equality renders `IS NULL` / `IS NOT NULL`.

/// `lhs = ?` with `rhs` bound, or `lhs IS NULL` when `rhs` is nil.
public func == <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    lhs.equality(with: rhs, negated: false)
}

/// `lhs <> ?` with `rhs` bound, or `lhs IS NOT NULL` when `rhs` is nil.
public func != <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    lhs.equality(with: rhs, negated: true)
}

/// `lhs < ?` with `rhs` bound.
public func < <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    lhs.compared(" < ", with: rhs)
}

/// `lhs <= ?` with `rhs` bound.
public func <= <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    lhs.compared(" <= ", with: rhs)
}

/// `lhs > ?` with `rhs` bound.
public func > <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    lhs.compared(" > ", with: rhs)
}

/// `lhs >= ?` with `rhs` bound.
public func >= <Root, Value>(lhs: TypedColumn<Root, Value>, rhs: Value) -> SQLExpression {
    lhs.compared(" >= ", with: rhs)
}

/// `lhs = rhs` for two columns of the same type.
public func == <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs` for two columns of the same type.
public func != <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs = rhs` for an optional column and a column of its wrapped type: a left-joined
/// table's column (optional in the query) and another table's.
public func == <Root, Other, Value>(lhs: TypedColumn<Root, Value?>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs = rhs` for a column and an optional column of the same wrapped type.
public func == <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value?>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: false)
}

/// `lhs <> rhs` for an optional column and a column of its wrapped type.
public func != <Root, Other, Value>(lhs: TypedColumn<Root, Value?>, rhs: TypedColumn<Other, Value>) -> SQLExpression {
    SQLExpression.equality(lhs.sqlExpression, rhs.sqlExpression, negated: true)
}

/// `lhs <> rhs` for a column and an optional column of the same wrapped type.
public func != <Root, Other, Value>(lhs: TypedColumn<Root, Value>, rhs: TypedColumn<Other, Value?>) -> SQLExpression {
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

extension TypedColumn {
    /// `"column" op ?` with `value` bound, made in one array: neither a column nor a value
    /// is ever parenthesized as an operand.
    @inline(__always)
    func compared(_ op: String, with value: Value) -> SQLExpression {
        SQLExpression([columnPiece, .text(op), valuePiece(value)], precedence: .comparison)
    }

    /// `"column" = ?` (or `<>` when `negated`), or `"column" IS [NOT] NULL` when `value` is NULL.
    @inline(__always)
    func equality(with value: Value, negated: Bool) -> SQLExpression {
        let piece = valuePiece(value)
        if case .value(.null) = piece {
            return SQLExpression([columnPiece, .text(negated ? " IS NOT NULL" : " IS NULL")], precedence: .comparison)
        }
        return SQLExpression([columnPiece, .text(negated ? " <> " : " = "), piece], precedence: .comparison)
    }
}
