// Comparison operators. Each has three forms: expression with expression, expression with
// value, value with expression. Values are bound as parameters; comparing with nil (or a
// value that is NULL) for equality renders `IS NULL` / `IS NOT NULL`, which SQL needs
// because `x = NULL` is never true.

extension SQLExpression {
    /// `lhs op rhs` for a comparison operator: non-associative, so an operand that is itself
    /// a comparison is parenthesized.
    static func comparison(_ lhs: any SQLExpressible, _ op: String, _ rhs: any SQLExpressible) -> SQLExpression {
        binary(lhs.sqlExpression, op, rhs.sqlExpression, precedence: .comparison, associative: false)
    }

    /// `lhs = rhs` (or `<>` when `negated`), with `IS [NOT] NULL` when either side is the NULL value.
    static func equality(_ lhs: any SQLExpressible, _ rhs: any SQLExpressible, negated: Bool) -> SQLExpression {
        let lhs = lhs.sqlExpression
        let rhs = rhs.sqlExpression
        let nullTest = negated ? " IS NOT NULL" : " IS NULL"
        if rhs.isNullValue { return lhs.postfix(nullTest, precedence: .comparison) }
        if lhs.isNullValue { return rhs.postfix(nullTest, precedence: .comparison) }
        return binary(lhs, negated ? " <> " : " = ", rhs, precedence: .comparison, associative: false)
    }

    /// Whether the expression is just the NULL value.
    var isNullValue: Bool {
        guard case .pieces(let pieces, _) = storage, pieces.count == 1, case .value(.null) = pieces[0] else {
            return false
        }
        return true
    }

    /// `self op` for a postfix operator of `precedence`, such as `IS NULL`.
    func postfix(_ op: String, precedence: SQLPrecedence) -> SQLExpression {
        var pieces = operand(of: precedence)
        pieces.append(.text(op))
        return SQLExpression(pieces, precedence: precedence)
    }
}

/// `lhs = rhs`.
public func == (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.equality(lhs, rhs, negated: false)
}

/// `lhs = ?` with `rhs` bound, or `lhs IS NULL` when `rhs` is nil.
public func == (lhs: any SQLExpressible, rhs: (any DatabaseValueConvertible)?) -> SQLExpression {
    SQLExpression.equality(lhs, SQLExpression.value(rhs), negated: false)
}

/// `? = rhs` with `lhs` bound, or `rhs IS NULL` when `lhs` is nil.
public func == (lhs: (any DatabaseValueConvertible)?, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.equality(SQLExpression.value(lhs), rhs, negated: false)
}

/// `lhs <> rhs`.
public func != (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.equality(lhs, rhs, negated: true)
}

/// `lhs <> ?` with `rhs` bound, or `lhs IS NOT NULL` when `rhs` is nil.
public func != (lhs: any SQLExpressible, rhs: (any DatabaseValueConvertible)?) -> SQLExpression {
    SQLExpression.equality(lhs, SQLExpression.value(rhs), negated: true)
}

/// `? <> rhs` with `lhs` bound, or `rhs IS NOT NULL` when `lhs` is nil.
public func != (lhs: (any DatabaseValueConvertible)?, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.equality(SQLExpression.value(lhs), rhs, negated: true)
}

/// `lhs < rhs`.
public func < (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(lhs, " < ", rhs)
}

/// `lhs < ?` with `rhs` bound.
public func < (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.comparison(lhs, " < ", SQLExpression.value(rhs))
}

/// `? < rhs` with `lhs` bound.
public func < (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(SQLExpression.value(lhs), " < ", rhs)
}

/// `lhs <= rhs`.
public func <= (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(lhs, " <= ", rhs)
}

/// `lhs <= ?` with `rhs` bound.
public func <= (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.comparison(lhs, " <= ", SQLExpression.value(rhs))
}

/// `? <= rhs` with `lhs` bound.
public func <= (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(SQLExpression.value(lhs), " <= ", rhs)
}

/// `lhs > rhs`.
public func > (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(lhs, " > ", rhs)
}

/// `lhs > ?` with `rhs` bound.
public func > (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.comparison(lhs, " > ", SQLExpression.value(rhs))
}

/// `? > rhs` with `lhs` bound.
public func > (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(SQLExpression.value(lhs), " > ", rhs)
}

/// `lhs >= rhs`.
public func >= (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(lhs, " >= ", rhs)
}

/// `lhs >= ?` with `rhs` bound.
public func >= (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.comparison(lhs, " >= ", SQLExpression.value(rhs))
}

/// `? >= rhs` with `lhs` bound.
public func >= (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.comparison(SQLExpression.value(lhs), " >= ", rhs)
}
