// Logical operators. `&&` and `||` build flat chains (see `SQLLogicalOperator`); `all` and
// `any` combine a whole list at once, which is also how to build a filter from a list
// that may be empty.

/// `lhs AND rhs`.
public func && (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLLogicalOperator.and.combine([lhs.sqlExpression, rhs.sqlExpression])
}

/// `lhs OR rhs`.
public func || (lhs: any SQLExpressible, rhs: any SQLExpressible) -> SQLExpression {
    SQLLogicalOperator.or.combine([lhs.sqlExpression, rhs.sqlExpression])
}

/// `NOT operand`.
public prefix func ! (operand: any SQLExpressible) -> SQLExpression {
    // Only SQL's precedence table says `NOT a = b` means `NOT (a = b)`; the parentheses say it to every reader.
    var pieces: [SQLPiece] = [.text("NOT ")]
    pieces.append(contentsOf: operand.sqlExpression.operand(of: .atomic, allowsEqual: true))
    return SQLExpression(pieces, precedence: .not)
}

extension SQLExpressible where Self == SQLExpression {
    /// True when every predicate is true: the predicates joined by `AND`; true (`1`) when
    /// there is none.
    ///
    /// ```swift
    /// let predicates = filters.map { Column($0.key) == $0.value }
    /// let matching = query.filter(.all(predicates))
    /// ```
    public static func all(_ predicates: [any SQLExpressible]) -> SQLExpression {
        SQLLogicalOperator.and.combine(predicates.map { $0.sqlExpression })
    }

    /// True when any predicate is true: the predicates joined by `OR`; false (`0`) when
    /// there is none.
    public static func any(_ predicates: [any SQLExpressible]) -> SQLExpression {
        SQLLogicalOperator.or.combine(predicates.map { $0.sqlExpression })
    }
}
