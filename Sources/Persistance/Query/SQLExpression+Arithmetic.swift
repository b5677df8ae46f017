// Arithmetic operators, rendered with SQL's precedence: `*` and `/` bind more tightly than
// `+` and `-`, all associate to the left. Values are bound as parameters. SQLite divides
// integers by integers as integers (`7 / 2` is 3).

extension SQLExpression {
    static func arithmetic(
        _ lhs: any SQLExpressible, _ op: String, _ rhs: any SQLExpressible, precedence: SQLPrecedence
    ) -> SQLExpression {
        binary(lhs.sqlExpression, op, rhs.sqlExpression, precedence: precedence)
    }
}

/// `lhs + rhs`.
public func + (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " + ", rhs, precedence: .additive)
}

/// `lhs + ?` with `rhs` bound.
public func + (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " + ", SQLExpression.value(rhs), precedence: .additive)
}

/// `? + rhs` with `lhs` bound.
public func + (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(SQLExpression.value(lhs), " + ", rhs, precedence: .additive)
}

/// `lhs - rhs`.
public func - (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " - ", rhs, precedence: .additive)
}

/// `lhs - ?` with `rhs` bound.
public func - (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " - ", SQLExpression.value(rhs), precedence: .additive)
}

/// `? - rhs` with `lhs` bound.
public func - (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(SQLExpression.value(lhs), " - ", rhs, precedence: .additive)
}

/// `lhs * rhs`.
public func * (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " * ", rhs, precedence: .multiplicative)
}

/// `lhs * ?` with `rhs` bound.
public func * (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " * ", SQLExpression.value(rhs), precedence: .multiplicative)
}

/// `? * rhs` with `lhs` bound.
public func * (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(SQLExpression.value(lhs), " * ", rhs, precedence: .multiplicative)
}

/// `lhs / rhs`.
public func / (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " / ", rhs, precedence: .multiplicative)
}

/// `lhs / ?` with `rhs` bound.
public func / (lhs: any SQLExpressible, rhs: any DatabaseValueConvertible) -> SQLExpression {
    SQLExpression.arithmetic(lhs, " / ", SQLExpression.value(rhs), precedence: .multiplicative)
}

/// `? / rhs` with `lhs` bound.
public func / (lhs: any DatabaseValueConvertible, rhs: any SQLExpressible) -> SQLExpression {
    SQLExpression.arithmetic(SQLExpression.value(lhs), " / ", rhs, precedence: .multiplicative)
}
