/// A query of a record's table joined to other tables, whose closures receive the typed,
/// qualified columns of every table: `TableColumns` for the record's table and each inner
/// join, `NullableTableColumns` (every value optional) for each left join.
///
/// ```swift
/// let rows = try Player.table.query()
///     .join(Team.self) { player, team in player.teamID == team.id }
///     .filter { _, team in team.city == "Oslo" }
///     .order { player, _ in player.score.desc }
///     .select { player, team in (player.name, team.name) }
///     .fetchAll(conn)                                     // [(String, String)]
/// ```
/// Join a table to itself under another name with `as:` (`join(Employee.self, as: "manager")`).
/// Fetching the joined query itself returns the records of its first table.
public struct JoinedQuery<Base: TableRecord, each Joined: TableSource>: Sendable {
    var clauses: QueryClauses
    /// The columns of each joined table, in the order they were joined.
    let joined: (repeat each Joined)

    init(clauses: QueryClauses, joined: (repeat each Joined)) {
        self.clauses = clauses
        self.joined = joined
    }

    /// The columns of the query's own table.
    var base: TableColumns<Base> { TableColumns(qualifier: clauses.table) }

    /// Joins `Other`'s table (named `alias` in this query when given), keeping the rows that
    /// have a row of it where `condition` holds (`JOIN … ON`).
    public func join<Other: TableRecord, Condition: SQLExpressible>(
        _ other: Other.Type, as alias: String? = nil,
        on condition: (TableColumns<Base>, repeat each Joined, TableColumns<Other>) -> Condition
    ) -> JoinedQuery<Base, repeat each Joined, TableColumns<Other>> {
        joining(TableColumns<Other>(qualifier: alias ?? Other.table.name), .inner, alias, condition)
    }

    /// Joins `Other`'s table (named `alias` in this query when given), keeping every row:
    /// those without a row of it where `condition` holds get NULLs for its columns
    /// (`LEFT JOIN … ON`), which is why its columns are optional.
    public func leftJoin<Other: TableRecord, Condition: SQLExpressible>(
        _ other: Other.Type, as alias: String? = nil,
        on condition: (TableColumns<Base>, repeat each Joined, NullableTableColumns<Other>) -> Condition
    ) -> JoinedQuery<Base, repeat each Joined, NullableTableColumns<Other>> {
        joining(NullableTableColumns<Other>(qualifier: alias ?? Other.table.name), .left, alias, condition)
    }

    private func joining<Source: TableSource, Condition: SQLExpressible>(
        _ source: Source, _ kind: JoinClause.Kind, _ alias: String?,
        _ condition: (TableColumns<Base>, repeat each Joined, Source) -> Condition
    ) -> JoinedQuery<Base, repeat each Joined, Source> {
        var query = JoinedQuery<Base, repeat each Joined, Source>(clauses: clauses, joined: (repeat each joined, source))
        // The condition takes the columns of every table so far: the joined query's own.
        let expression = query.applied(condition).sqlExpression
        query.clauses.joins.append(
            JoinClause(kind: kind, table: Source.Record.table.name, alias: alias, condition: expression))
        return query
    }

    /// `body` applied to the columns of every table of the query.
    private func applied<Result>(_ body: (TableColumns<Base>, repeat each Joined) -> Result) -> Result {
        body(base, repeat each joined)
    }

    private func with(_ change: (inout QueryClauses) -> Void) -> JoinedQuery {
        var query = self
        change(&query.clauses)
        return query
    }

    /// Keeps the rows where `predicate` is true. Several filters must all hold (`AND`).
    public func filter<Predicate: SQLExpressible>(
        _ predicate: (TableColumns<Base>, repeat each Joined) -> Predicate
    ) -> JoinedQuery {
        let expression = applied(predicate).sqlExpression
        return with { $0.predicate = $0.predicate.map { $0 && expression } ?? expression }
    }

    /// Orders the rows by the terms `orderings` returns (one, or a tuple), the first one
    /// first; replaces any previous order.
    public func order<each Term: SQLOrderable>(
        _ orderings: (TableColumns<Base>, repeat each Joined) -> (repeat each Term)
    ) -> JoinedQuery {
        var terms: [SQLOrdering] = []
        let ordered = applied(orderings)
        for term in repeat each ordered {
            terms.append(term.sqlOrdering)
        }
        return with { $0.ordering = terms }
    }

    /// Groups the rows by the columns or expressions `grouping` returns (one, or a tuple);
    /// replaces any previous grouping.
    public func group<each Term: SQLSelectable>(
        by grouping: (TableColumns<Base>, repeat each Joined) -> (repeat each Term)
    ) -> JoinedQuery {
        var terms: [SQLExpression] = []
        let grouped = applied(grouping)
        for term in repeat each grouped {
            terms.append(term.sqlSelection.expression)
        }
        return with { $0.grouping = terms }
    }

    /// Keeps the groups where `predicate` is true (`HAVING`). Several must all hold (`AND`).
    /// Requires `group(by:)`: without it the query throws `invalidQuery` when it runs.
    public func having<Predicate: SQLExpressible>(
        _ predicate: (TableColumns<Base>, repeat each Joined) -> Predicate
    ) -> JoinedQuery {
        let expression = applied(predicate).sqlExpression
        return with { $0.groupPredicate = $0.groupPredicate.map { $0 && expression } ?? expression }
    }

    /// Returns at most `limit` rows, after skipping `offset` rows; replaces any previous limit.
    public func limit(_ limit: Int, offset: Int? = nil) -> JoinedQuery {
        with {
            $0.limit = limit
            $0.offset = offset
        }
    }

    /// Returns each distinct row once (`SELECT DISTINCT`).
    public func distinct() -> JoinedQuery {
        with { $0.isDistinct = true }
    }

    /// The typed result columns `selection` returns (one, or a tuple): a query whose rows
    /// are tuples of their values.
    public func select<each Selected: TypedSelectable>(
        _ selection: (TableColumns<Base>, repeat each Joined) -> (repeat each Selected)
    ) -> SelectQuery<repeat (each Selected).Value> {
        var columns: [SQLSelection] = []
        let selected = applied(selection)
        for column in repeat each selected {
            columns.append(column.sqlSelection)
        }
        var clauses = self.clauses
        clauses.selection = columns
        return SelectQuery(clauses: clauses)
    }

    /// The query's rows as records of its first table (`SELECT "table".*`).
    public var records: Query<Base> {
        Query(clauses: clauses)
    }

    /// Every row, as a record of the query's first table.
    public func fetchAll(_ conn: Connection) throws -> [Base] {
        try records.fetchAll(conn)
    }

    /// The number of rows the query returns.
    public func fetchCount(_ conn: Connection) throws -> Int {
        try records.fetchCount(conn)
    }
}

extension Query where Element: TableRecord {
    /// This query with typed, qualified columns: the start of a joined or typed query.
    var joinable: JoinedQuery<Element> {
        JoinedQuery(clauses: clauses, joined: ())
    }

    /// Joins `Other`'s table (see `JoinedQuery.join(_:as:on:)`).
    public func join<Other: TableRecord, Condition: SQLExpressible>(
        _ other: Other.Type, as alias: String? = nil,
        on condition: (TableColumns<Element>, TableColumns<Other>) -> Condition
    ) -> JoinedQuery<Element, TableColumns<Other>> {
        joinable.join(other, as: alias, on: condition)
    }

    /// Left-joins `Other`'s table (see `JoinedQuery.leftJoin(_:as:on:)`).
    public func leftJoin<Other: TableRecord, Condition: SQLExpressible>(
        _ other: Other.Type, as alias: String? = nil,
        on condition: (TableColumns<Element>, NullableTableColumns<Other>) -> Condition
    ) -> JoinedQuery<Element, NullableTableColumns<Other>> {
        joinable.leftJoin(other, as: alias, on: condition)
    }

    /// Keeps the rows where `predicate`, written with the table's qualified columns, is true.
    /// Its columns can be used in a subquery of the predicate (a correlated subquery).
    public func filter<Predicate: SQLExpressible>(_ predicate: (TableColumns<Element>) -> Predicate) -> Query {
        filter(predicate(joinable.base))
    }

    /// Groups the rows by the columns or expressions `grouping` returns (one, or a tuple).
    public func group<each Term: SQLSelectable>(
        by grouping: (TableColumns<Element>) -> (repeat each Term)
    ) -> JoinedQuery<Element> {
        joinable.group(by: grouping)
    }

    /// The typed result columns `selection` returns (one, or a tuple): a query whose rows
    /// are tuples of their values.
    /// ```swift
    /// let best = try Player.table.query().select { ($0.name, $0.score) }.fetchAll(conn)
    /// ```
    public func select<each Selected: TypedSelectable>(
        _ selection: (TableColumns<Element>) -> (repeat each Selected)
    ) -> SelectQuery<repeat (each Selected).Value> {
        joinable.select(selection)
    }
}
