/// Something a query can be ordered by: an `SQLOrdering`, or any expression (ascending).
public protocol SQLOrderable: Sendable {
    /// The ordering term this value stands for.
    var sqlOrdering: SQLOrdering { get }
}

/// One term of an `ORDER BY` clause: an expression, a direction, and where NULLs go.
///
/// ```swift
/// query.order(Column("score").desc, Column("name"))
/// query.order(Column("age").asc.nullsLast)
/// ```
/// SQLite puts NULLs first in ascending order and last in descending order. `nullsFirst`
/// and `nullsLast` change that with an extra `expression IS NULL` term, which every SQLite
/// version understands (`NULLS FIRST` / `NULLS LAST` need SQLite 3.30).
public struct SQLOrdering: SQLOrderable, SQLRenderable, Sendable {
    let expression: SQLExpression
    let isDescending: Bool
    /// Whether NULLs come first; nil for SQLite's default for the direction.
    let nullsComeFirst: Bool?

    public var sqlOrdering: SQLOrdering { self }

    /// The same ordering with NULLs before every other value.
    public var nullsFirst: SQLOrdering {
        SQLOrdering(expression: expression, isDescending: isDescending, nullsComeFirst: true)
    }

    /// The same ordering with NULLs after every other value.
    public var nullsLast: SQLOrdering {
        SQLOrdering(expression: expression, isDescending: isDescending, nullsComeFirst: false)
    }

    /// Writes `expression ASC|DESC`, preceded by `expression IS NULL ASC|DESC, ` when NULLs
    /// must go where SQLite would not put them.
    func render<Writer: SQLWriter>(into writer: inout Writer) throws {
        // SQLite's default: NULLs first when ascending, last when descending.
        if let nullsComeFirst, nullsComeFirst == isDescending {
            try writer.append(expression.postfix(" IS NULL", precedence: .comparison).pieces)
            writer.append(nullsComeFirst ? " DESC, " : " ASC, ")
        }
        try expression.render(into: &writer)
        writer.append(isDescending ? " DESC" : " ASC")
    }
}

extension SQLExpressible {
    /// Ascending order of this expression.
    public var asc: SQLOrdering {
        SQLOrdering(expression: sqlExpression, isDescending: false, nullsComeFirst: nil)
    }

    /// Descending order of this expression.
    public var desc: SQLOrdering {
        SQLOrdering(expression: sqlExpression, isDescending: true, nullsComeFirst: nil)
    }

    public var sqlOrdering: SQLOrdering { asc }
}
