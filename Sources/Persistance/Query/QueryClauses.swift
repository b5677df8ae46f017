/// The clauses of a query, whatever type it decodes, and the SQL statements they make.
struct QueryClauses: Sendable {
    /// The table's name, unquoted.
    let table: String
    /// The tables joined to it, in order.
    var joins: [JoinClause] = []
    /// The queries combined with this one by `UNION [ALL]`, in order.
    var compounds: [CompoundMember] = []
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

    /// The table that qualifies column references, or nil when they are bare. A query that
    /// joins tables always qualifies them: a bare name could belong to any of its tables.
    var qualifyingTable: String? { qualifiesColumns || !joins.isEmpty ? table : nil }

    /// `statement` of these clauses in `dialect`: its SQL text (rendered once per query shape,
    /// see `QueryRenderCache`) and its values.
    func sql(_ statement: QueryStatement, in dialect: any SQLDialect = SQLiteDialect()) throws -> RenderedSQL {
        try QueryRenderCache.shared.rendered(statement, of: self, in: dialect)
    }

    /// The prepared statement of `statement` on `conn`, every parameter bound: what
    /// `sql(_:in:)` then `RenderedSQL.statement(in:)` give, without allocating when the text
    /// is cached (see `QueryRenderCache.statement(_:of:on:)`).
    func prepared(_ statement: QueryStatement, on conn: Connection) throws -> Statement {
        try conn.queryRenderCache.statement(statement, of: self, on: conn)
    }

    /// The `SELECT` (of its first row only when `limitedToFirst`) prepared on `conn`, every
    /// value bound: what every kind of query fetches with.
    func selectStatement(in conn: Connection, limitedToFirst: Bool) throws -> Statement {
        try limitedToFirst ? first.prepared(.select, on: conn) : prepared(.select, on: conn)
    }

    /// `SELECT [DISTINCT] … FROM "table" [WHERE …] [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT ? [OFFSET ?]]`.
    func selectSQL() throws -> RenderedSQL { try sql(.select) }

    /// `SELECT count(*)` of the rows the query returns.
    func countSQL() throws -> RenderedSQL { try sql(.count) }

    /// `SELECT EXISTS (query)`: 1 when the query returns a row, else 0.
    func existsSQL() throws -> RenderedSQL { try sql(.exists) }

    /// `DELETE FROM "table"` with the rows the query selects.
    func deleteSQL() throws -> RenderedSQL { try sql(.delete) }

    /// `UPDATE "table" SET …` of the rows the query selects.
    func updateSQL(_ assignments: [ColumnAssignment]) throws -> RenderedSQL { try sql(.update(assignments)) }

    /// Writes `statement` into `writer`.
    func write<Writer: SQLWriter>(_ statement: QueryStatement, to writer: inout Writer) throws {
        switch statement {
        case .select:
            try appendSelect(to: &writer)
        case .count:
            // Counted in the table directly when only filters apply, else around the whole
            // query as a subquery.
            if isDistinct || !grouping.isEmpty || groupPredicate != nil || limit != nil || offset != nil || !compounds.isEmpty {
                writer.append("SELECT count(*) FROM (")
                try appendSelect(to: &writer)
                writer.append(")")
            } else {
                writer.append("SELECT count(*) FROM ")
                try appendFrom(to: &writer)
                try appendWhere(to: &writer)
            }
        case .exists:
            // A limited query is wrapped once more, because older SQLite (3.15, the SQLCipher
            // build) replaces the LIMIT of an EXISTS subquery with 1, which turns `LIMIT 0` into true.
            writer.append(limit == nil ? "SELECT EXISTS (" : "SELECT EXISTS (SELECT 1 FROM (")
            try appendSelect(to: &writer)
            writer.append(limit == nil ? ")" : "))")
        case .delete:
            writer.append("DELETE FROM ")
            try writer.appendIdentifier(table)
            try appendRowSelection(to: &writer, for: "delete")
        case .update(let assignments):
            writer.append("UPDATE ")
            try writer.appendIdentifier(table)
            writer.append(" SET ")
            try writer.appendList(assignments)
            try appendRowSelection(to: &writer, for: "update")
        }
    }

    // MARK: Clauses

    /// The `SELECT`, then each `UNION [ALL]` member, then the order and limit of the whole.
    private func appendSelect(to writer: inout some SQLWriter) throws {
        try appendSelectCore(to: &writer)
        for member in compounds {
            writer.append(member.kind.sql)
            guard member.clauses.ordering.isEmpty, member.clauses.limit == nil, member.clauses.offset == nil,
                member.clauses.compounds.isEmpty
            else {
                throw DatabaseError.invalidQuery("a query combined by union cannot have its own order, limit or union")
            }
            let enclosing = writer.enterScope(qualifyingColumnsWith: member.clauses.qualifyingTable)
            try member.clauses.appendSelectCore(to: &writer)
            writer.leaveScope(enclosing)
        }
        try appendOrderAndLimit(to: &writer)
    }

    /// `SELECT [DISTINCT] … FROM … [WHERE …] [GROUP BY …] [HAVING …]`.
    private func appendSelectCore(to writer: inout some SQLWriter) throws {
        writer.append(isDistinct ? "SELECT DISTINCT " : "SELECT ")
        if selection.isEmpty, joins.isEmpty {
            writer.append("*")
        } else if selection.isEmpty {
            try writer.appendIdentifier(table)
            writer.append(".*")
        } else {
            try writer.appendList(selection)
            writer.bringIntoScope(aliasesOf: selection)
        }
        writer.append(" FROM ")
        try appendFrom(to: &writer)
        try appendWhere(to: &writer)
        if !grouping.isEmpty {
            writer.append(" GROUP BY ")
            try writer.appendList(grouping)
        }
        if let groupPredicate {
            guard !grouping.isEmpty else { throw DatabaseError.invalidQuery("having requires group(by:)") }
            writer.append(" HAVING ")
            try groupPredicate.render(into: &writer)
        }
    }

    /// `"table"`, then each joined table with its condition.
    private func appendFrom(to writer: inout some SQLWriter) throws {
        try writer.appendIdentifier(table)
        for join in joins {
            try join.render(into: &writer)
        }
    }

    private func appendWhere(to writer: inout some SQLWriter) throws {
        guard let predicate else { return }
        writer.append(" WHERE ")
        try predicate.render(into: &writer)
    }

    private func appendOrderAndLimit(to writer: inout some SQLWriter) throws {
        if !ordering.isEmpty {
            writer.append(" ORDER BY ")
            try writer.appendList(ordering)
        }
        if let limit, limit < 0 { throw DatabaseError.invalidQuery("limit must not be negative, got \(limit)") }
        if let offset, offset < 0 { throw DatabaseError.invalidQuery("offset must not be negative, got \(offset)") }
        switch (limit, offset) {
        case (nil, nil):
            break
        case (let limit?, nil):
            writer.append(" LIMIT ")
            writer.appendValue(.integer(Int64(limit)))
        case (let limit, let offset?):
            // Some engines (SQLite) have no OFFSET without LIMIT; a negative limit means no limit.
            if limit != nil || writer.dialect.requiresLimitWithOffset {
                writer.append(" LIMIT ")
                writer.appendValue(.integer(Int64(limit ?? -1)))
            }
            writer.append(" OFFSET ")
            writer.appendValue(.integer(Int64(offset)))
        }
    }

    /// The `WHERE` of a DELETE or UPDATE. With a limit or offset, the rows are picked by a
    /// rowid subquery that orders and limits them (DELETE … LIMIT is a compile-time option
    /// SQLite builds usually lack); a table `WITHOUT ROWID` then fails with SQLite's error.
    private func appendRowSelection(to writer: inout some SQLWriter, for operation: String) throws {
        guard !isDistinct, grouping.isEmpty, groupPredicate == nil, joins.isEmpty, compounds.isEmpty else {
            throw DatabaseError.invalidQuery("cannot \(operation) through a distinct, grouped, joined or combined query")
        }
        guard limit != nil || offset != nil else {
            return try appendWhere(to: &writer)
        }
        writer.append(" WHERE rowid IN (SELECT rowid FROM ")
        try writer.appendIdentifier(table)
        try appendWhere(to: &writer)
        try appendOrderAndLimit(to: &writer)
        writer.append(")")
    }
}
