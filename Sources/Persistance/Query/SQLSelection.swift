/// Something a query can select: an `SQLSelection` (an expression with an alias), or any
/// expression.
public protocol SQLSelectable: Sendable {
    /// The result column this value stands for.
    var sqlSelection: SQLSelection { get }
}

/// One result column of a query: an expression, optionally named with `AS`.
///
/// ```swift
/// query.select(Column("name"), SQLExpression.max(Column("score")).aliased("best"))
/// ```
public struct SQLSelection: SQLSelectable, SQLRenderable, Sendable {
    let expression: SQLExpression
    /// The result column's name (unquoted), or nil for SQLite's default name.
    let alias: String?

    public var sqlSelection: SQLSelection { self }

    /// Writes `expression [AS "alias"]`.
    func render<Writer: SQLWriter>(into writer: inout Writer) throws {
        try expression.render(into: &writer)
        if let alias {
            writer.append(" AS ")
            try writer.appendIdentifier(alias)
        }
    }
}

extension SQLExpressible {
    /// This expression as a result column named `alias`: `expression AS "alias"`.
    public func aliased(_ alias: String) -> SQLSelection {
        SQLSelection(expression: sqlExpression, alias: alias)
    }

    public var sqlSelection: SQLSelection {
        SQLSelection(expression: sqlExpression, alias: nil)
    }
}
