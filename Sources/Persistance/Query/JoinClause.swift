/// One table joined to a query: `[LEFT] JOIN "table" [AS "alias"] ON condition`.
struct JoinClause: SQLRenderable, Sendable {
    /// How rows without a match are treated.
    enum Kind: Sendable {
        /// Only rows with a match in both tables.
        case inner
        /// Every row of the tables before, with NULLs for this table's columns when no row matches.
        case left
    }

    let kind: Kind
    /// The joined table's name, unquoted.
    let table: String
    /// The name its columns are qualified with in this query, when not the table's own.
    let alias: String?
    let condition: SQLExpression

    func render<Writer: SQLWriter>(into writer: inout Writer) throws {
        writer.append(kind == .inner ? " JOIN " : " LEFT JOIN ")
        try writer.appendIdentifier(table)
        if let alias {
            writer.append(" AS ")
            try writer.appendIdentifier(alias)
        }
        writer.append(" ON ")
        try condition.render(into: &writer)
    }
}
