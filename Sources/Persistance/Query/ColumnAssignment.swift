/// One `column = value` of an `UPDATE`, made with `Column.set(to:)`.
///
/// ```swift
/// try query.updateAll(conn, Column("score").set(to: 0), Column("name").set(to: nil))
/// try query.updateAll(conn, Column("score").set(to: Column("score") + 1))
/// ```
public struct ColumnAssignment: SQLRenderable, Sendable {
    /// The assigned column's name, unquoted.
    public let column: String
    let value: SQLExpression

    /// Writes `"column" = value`. The column stays bare: SQLite takes no qualified name
    /// there, and checks it against the table's columns on every version.
    func render<Writer: SQLWriter>(into writer: inout Writer) throws {
        try writer.appendIdentifier(column)
        writer.append(" = ")
        try value.render(into: &writer)
    }
}

extension Column {
    /// Sets this column to `value`, bound as a parameter; nil sets it to NULL.
    public func set(to value: (any DatabaseValueConvertible)?) -> ColumnAssignment {
        ColumnAssignment(column: name, value: SQLExpression.value(value))
    }

    /// Sets this column to the value of `expression`, computed per row.
    public func set(to expression: any SQLExpressible) -> ColumnAssignment {
        ColumnAssignment(column: name, value: expression.sqlExpression)
    }
}
