/// A query of one table: which rows (filter), in which order, how many, which columns,
/// grouped or not — built as a value, then fetched, counted, deleted or updated through a
/// connection.
///
/// ```swift
/// let top = try players.query()
///     .filter(Column("score") > 5 && Column("name") != nil)
///     .order(Column("score").desc)
///     .limit(10)
///     .fetchAll(conn)
/// ```
///
/// A query is an immutable, `Sendable` value: each method returns a new query and leaves
/// the original as it was, so a base query can be kept and refined in several ways, and
/// shared between tasks. Nothing runs until a `fetch…`, `deleteAll` or `updateAll` method is
/// called. The SQL text is rendered once per query shape (the same chain with other values
/// reuses it, see `QueryRenderCache`) and the prepared statement comes from the
/// connection's statement cache, so a query run many times is rendered and prepared once.
///
/// Every identifier is quoted and every value (including limit and offset) is bound as a
/// parameter: no value passed to a query ever becomes SQL text.
public struct Query<Element: Record>: Sendable {
    var clauses: QueryClauses

    /// A query of every row of the table called `table`, decoding `Element`s.
    /// For a declared table, `table.query()` is the same.
    public init(table: String) {
        clauses = QueryClauses(table: table)
    }

    init(clauses: QueryClauses) {
        self.clauses = clauses
    }

    /// The table's name, unquoted.
    public var tableName: String { clauses.table }

    /// The query changed by `change`. Consuming, like the builder methods: a chain of calls
    /// moves one query along instead of copying and destroying its clauses at each step.
    private consuming func with(_ change: (inout QueryClauses) -> Void) -> Query {
        var query = self
        change(&query.clauses)
        return query
    }

    /// Keeps the rows where `predicate` is true. Several filters must all hold (`AND`).
    public consuming func filter(_ predicate: some SQLExpressible) -> Query {
        with { $0.predicate = $0.predicate.map { $0 && predicate } ?? predicate.sqlExpression }
    }

    /// Orders the rows by these terms, the first one first; replaces any previous order.
    /// An expression alone is ascending; write `.desc` for descending.
    public consuming func order(_ orderings: any SQLOrderable...) -> Query {
        order(orderings)
    }

    /// Orders the rows by these terms, the first one first; replaces any previous order.
    /// An empty list removes the order.
    public consuming func order(_ orderings: [any SQLOrderable]) -> Query {
        with { $0.ordering = orderings.map { $0.sqlOrdering } }
    }

    /// Returns at most `limit` rows, after skipping `offset` rows (in the query's order);
    /// replaces any previous limit and offset. A negative limit or offset is an
    /// `invalidQuery` error when the query runs.
    public consuming func limit(_ limit: Int, offset: Int? = nil) -> Query {
        with {
            $0.limit = limit
            $0.offset = offset
        }
    }

    /// Returns each distinct row once (`SELECT DISTINCT`).
    public consuming func distinct() -> Query {
        with { $0.isDistinct = true }
    }

    /// Returns these result columns instead of every column; replaces any previous selection.
    /// An empty list selects every column again.
    public consuming func select(_ selection: any SQLSelectable...) -> Query {
        select(selection)
    }

    /// Returns these result columns instead of every column; replaces any previous selection.
    /// An empty list selects every column again.
    public consuming func select(_ selection: [any SQLSelectable]) -> Query {
        with { $0.selection = selection.map { $0.sqlSelection } }
    }

    /// Groups the rows by these expressions (`GROUP BY`); replaces any previous grouping.
    public consuming func group(by expressions: any SQLExpressible...) -> Query {
        group(by: expressions)
    }

    /// Groups the rows by these expressions (`GROUP BY`); replaces any previous grouping.
    /// An empty list removes the grouping.
    public consuming func group(by expressions: [any SQLExpressible]) -> Query {
        with { $0.grouping = expressions.map { $0.sqlExpression } }
    }

    /// Keeps the groups where `predicate` is true (`HAVING`). Several must all hold (`AND`).
    /// Requires `group(by:)`: without it the query throws `invalidQuery` when it runs.
    public consuming func having(_ predicate: some SQLExpressible) -> Query {
        with { $0.groupPredicate = $0.groupPredicate.map { $0 && predicate } ?? predicate.sqlExpression }
    }

    /// The rows of this query and of `other`, each distinct row once (`UNION`). Neither may
    /// have its own order or limit; order and limit the union instead.
    public consuming func union(_ other: Query) -> Query {
        with { $0.compounds.append(CompoundMember(kind: .union, clauses: other.clauses)) }
    }

    /// The rows of this query and of `other`, duplicates kept (`UNION ALL`).
    public consuming func unionAll(_ other: Query) -> Query {
        with { $0.compounds.append(CompoundMember(kind: .unionAll, clauses: other.clauses)) }
    }

    /// The same query, decoding its rows as `type`: `query.decoded(as: Row.self)` fetches plain rows.
    public func decoded<Other: Record>(as type: Other.Type) -> Query<Other> {
        Query<Other>(clauses: clauses)
    }
}
