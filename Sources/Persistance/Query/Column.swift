/// A reference to a column by name, for building expressions: `Column("score") > 5`.
///
/// The name is one identifier, always quoted when rendered, so any name works, including
/// one with spaces or quotes; `Column("t.a")` names a column called `t.a`, not column `a`
/// of table `t`.
public struct Column: SQLExpressible, Sendable {
    /// The column's name, unquoted.
    public let name: String

    /// A reference to the column called `name`.
    public init(_ name: String) {
        self.name = name
    }

    public var sqlExpression: SQLExpression {
        SQLExpression([.column(name)], precedence: .atomic)
    }
}
