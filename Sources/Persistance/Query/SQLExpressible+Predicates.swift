// Predicates written as methods: IN, LIKE and BETWEEN.

extension SQLExpressible {
    /// `self IN (?, ?, …)` with every value bound.
    ///
    /// An empty list renders the constant false (`0`), so `.in([])` matches no row and
    /// `!(.in([]))` matches every row, without an SQL error. Each value is one SQL
    /// parameter: SQLite allows 999 parameters per statement before 3.32 (so with the
    /// SQLCipher build) and 32,766 after; a longer list fails with a clear SQLite error.
    /// ```swift
    /// query.filter(Column("id").in(ids))
    /// ```
    public func `in`<Values: Sequence>(_ values: Values) -> SQLExpression
    where Values.Element: DatabaseValueConvertible {
        var list = [DatabaseValue]()
        list.reserveCapacity(values.underestimatedCount)
        for value in values {
            let piece = SQLExpression.piece(for: value)
            guard case .value(let stored) = piece else { return SQLExpression([piece], precedence: .atomic) }
            list.append(stored)
        }
        guard !list.isEmpty else { return SQLExpression.constant(false) }
        var pieces = sqlExpression.operand(of: .comparison)
        pieces.append(contentsOf: [.text(" IN ("), .values(list), .text(")")])
        return SQLExpression(pieces, precedence: .comparison)
    }

    /// `self LIKE pattern`, or `self LIKE pattern ESCAPE escape`, with the pattern and the
    /// escape character bound.
    ///
    /// In the pattern `%` matches any run of characters and `_` any one character; the
    /// escape character makes the next `%`, `_` or escape character literal. SQLite
    /// compares ASCII letters case-insensitively.
    /// ```swift
    /// query.filter(Column("name").like("100\\%%", escape: "\\"))   // starts with "100%"
    /// ```
    public func like(_ pattern: String, escape: Character? = nil) -> SQLExpression {
        var pieces = sqlExpression.operand(of: .comparison)
        pieces.append(.text(" LIKE "))
        pieces.append(.value(.text(pattern)))
        if let escape {
            pieces.append(.text(" ESCAPE "))
            pieces.append(.value(.text(String(escape))))
        }
        return SQLExpression(pieces, precedence: .comparison)
    }

    /// `self BETWEEN lower AND upper`: true when `lower <= self <= upper`.
    public func between(_ lower: any SQLExpressible, and upper: any SQLExpressible) -> SQLExpression {
        var pieces = sqlExpression.operand(of: .comparison)
        pieces.append(.text(" BETWEEN "))
        pieces.append(contentsOf: lower.sqlExpression.operand(of: .comparison))
        pieces.append(.text(" AND "))
        pieces.append(contentsOf: upper.sqlExpression.operand(of: .comparison))
        return SQLExpression(pieces, precedence: .comparison)
    }

    /// `self BETWEEN ? AND ?` with both bounds bound: true when `lower <= self <= upper`.
    public func between(
        _ lower: any DatabaseValueConvertible, and upper: any DatabaseValueConvertible
    ) -> SQLExpression {
        between(SQLExpression.value(lower), and: SQLExpression.value(upper))
    }
}
