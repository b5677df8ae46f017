/// The clauses of a query, whatever type it decodes, and the SQL statements they make.
struct QueryClauses: Sendable {
    /// The table's name, unquoted.
    let table: String
    /// The result columns; empty for `*`.
    var selection: [SQLSelection] = []
    var isDistinct = false
    /// The `WHERE` predicate: every filter joined by `AND`.
    var predicate: SQLExpression?
    var grouping: [SQLExpression] = []
    /// The `HAVING` predicate: every `having` joined by `AND`.
    var groupPredicate: SQLExpression?
    var ordering: [SQLOrdering] = []
    var limit: Int?
    var offset: Int?
    /// Whether column references are qualified with the table's name (`"player"."score"`):
    /// on engines that read a quoted name matching no column as a string literal (SQLite
    /// before 3.29, the SQLCipher build), where a misspelt or hostile name would otherwise
    /// make a condition that holds for every row. See `SQLRenderer.appendColumn(_:)`. Newer
    /// engines reject such names themselves and get the shorter SQL; tests turn it on to
    /// check the qualified SQL against every engine.
    var qualifiesColumns = !SQLiteEngine.rejectsUnknownQuotedIdentifiers

    /// The same clauses limited to their first row.
    var first: QueryClauses {
        var clauses = self
        clauses.limit = Swift.min(limit ?? 1, 1)
        return clauses
    }

    /// `SELECT [DISTINCT] … FROM "table" [WHERE …] [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT ? [OFFSET ?]]`.
    func selectSQL() throws -> SQLRenderer {
        var renderer = makeRenderer()
        try appendSelect(to: &renderer)
        return renderer
    }

    /// `SELECT count(*)` of the rows the query returns: counted in the table directly when only
    /// filters apply, else around the whole query as a subquery.
    func countSQL() throws -> SQLRenderer {
        var renderer = makeRenderer()
        if isDistinct || !grouping.isEmpty || groupPredicate != nil || limit != nil || offset != nil {
            renderer.append("SELECT count(*) FROM (")
            try appendSelect(to: &renderer)
            renderer.append(")")
        } else {
            renderer.append("SELECT count(*) FROM ")
            try renderer.appendIdentifier(table)
            try appendWhere(to: &renderer)
        }
        return renderer
    }

    /// `SELECT EXISTS (query)`: 1 when the query returns a row, else 0. A limited query is
    /// wrapped once more, because older SQLite (3.15, the SQLCipher build) replaces the LIMIT
    /// of an EXISTS subquery with 1, which turns `LIMIT 0` into true.
    func existsSQL() throws -> SQLRenderer {
        var renderer = makeRenderer()
        renderer.append(limit == nil ? "SELECT EXISTS (" : "SELECT EXISTS (SELECT 1 FROM (")
        try appendSelect(to: &renderer)
        renderer.append(limit == nil ? ")" : "))")
        return renderer
    }

    /// `DELETE FROM "table"` with the rows the query selects.
    func deleteSQL() throws -> SQLRenderer {
        var renderer = makeRenderer()
        renderer.append("DELETE FROM ")
        try renderer.appendIdentifier(table)
        try appendRowSelection(to: &renderer, for: "delete")
        return renderer
    }

    /// `UPDATE "table" SET …` of the rows the query selects.
    func updateSQL(_ assignments: [ColumnAssignment]) throws -> SQLRenderer {
        var renderer = makeRenderer()
        renderer.append("UPDATE ")
        try renderer.appendIdentifier(table)
        renderer.append(" SET ")
        try renderer.appendList(assignments)
        try appendRowSelection(to: &renderer, for: "update")
        return renderer
    }

    // MARK: Clauses

    private func makeRenderer() -> SQLRenderer {
        SQLRenderer(qualifyingColumnsWith: qualifiesColumns ? table : nil)
    }

    private func appendSelect(to renderer: inout SQLRenderer) throws {
        renderer.append(isDistinct ? "SELECT DISTINCT " : "SELECT ")
        if selection.isEmpty {
            renderer.append("*")
        } else {
            try renderer.appendList(selection)
            renderer.bringIntoScope(aliasesOf: selection)
        }
        renderer.append(" FROM ")
        try renderer.appendIdentifier(table)
        try appendWhere(to: &renderer)
        if !grouping.isEmpty {
            renderer.append(" GROUP BY ")
            try renderer.appendList(grouping)
        }
        if let groupPredicate {
            guard !grouping.isEmpty else { throw DatabaseError.invalidQuery("having requires group(by:)") }
            renderer.append(" HAVING ")
            try groupPredicate.render(into: &renderer)
        }
        try appendOrderAndLimit(to: &renderer)
    }

    private func appendWhere(to renderer: inout SQLRenderer) throws {
        guard let predicate else { return }
        renderer.append(" WHERE ")
        try predicate.render(into: &renderer)
    }

    private func appendOrderAndLimit(to renderer: inout SQLRenderer) throws {
        if !ordering.isEmpty {
            renderer.append(" ORDER BY ")
            try renderer.appendList(ordering)
        }
        if let limit, limit < 0 { throw DatabaseError.invalidQuery("limit must not be negative, got \(limit)") }
        if let offset, offset < 0 { throw DatabaseError.invalidQuery("offset must not be negative, got \(offset)") }
        switch (limit, offset) {
        case (nil, nil):
            break
        case (let limit?, nil):
            renderer.append(" LIMIT ")
            renderer.appendValue(.integer(Int64(limit)))
        case (let limit, let offset?):
            // SQLite has no OFFSET without LIMIT; a negative limit means no limit.
            renderer.append(" LIMIT ")
            renderer.appendValue(.integer(Int64(limit ?? -1)))
            renderer.append(" OFFSET ")
            renderer.appendValue(.integer(Int64(offset)))
        }
    }

    /// The `WHERE` of a DELETE or UPDATE. With a limit or offset, the rows are picked by a
    /// rowid subquery that orders and limits them (DELETE … LIMIT is a compile-time option
    /// SQLite builds usually lack); a table `WITHOUT ROWID` then fails with SQLite's error.
    private func appendRowSelection(to renderer: inout SQLRenderer, for operation: String) throws {
        guard !isDistinct, grouping.isEmpty, groupPredicate == nil else {
            throw DatabaseError.invalidQuery("cannot \(operation) through a distinct or grouped query")
        }
        guard limit != nil || offset != nil else {
            return try appendWhere(to: &renderer)
        }
        renderer.append(" WHERE rowid IN (SELECT rowid FROM ")
        try renderer.appendIdentifier(table)
        try appendWhere(to: &renderer)
        try appendOrderAndLimit(to: &renderer)
        renderer.append(")")
    }
}
