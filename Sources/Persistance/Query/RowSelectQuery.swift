/// A query whose rows are tuples of records and values: what `selectRecords` makes, where
/// the selection returns a table's columns (its record) beside typed columns.
///
/// ```swift
/// let rows: [(Player, String?)] = try Player.table.query()
///     .leftJoin(Team.self) { player, team in player.teamID == team.id }
///     .selectRecords { player, team in (player, team.name) }
///     .fetchAll(conn)
/// ```
public struct RowSelectQuery<each Selected: RowSelectable>: Sendable {
    var clauses: QueryClauses

    init(clauses: QueryClauses) {
        self.clauses = clauses
    }

    /// The query's `SELECT` (only its first row when `limitedToFirst`), from `conn`'s
    /// statement cache, with every value bound.
    @usableFromInline
    func selectStatement(in conn: Connection, limitedToFirst: Bool) throws -> Statement {
        try clauses.selectStatement(in: conn, limitedToFirst: limitedToFirst)
    }

    /// The readers of the selected elements, each at its first result column.
    @inlinable
    static func readers() -> (repeat (each Selected).Reader) {
        var index = 0
        return (repeat (each Selected).reader(startingAt: &index))
    }

    /// Every row. Inlinable, so that reading the values is specialized for their types in
    /// the caller's module.
    @inlinable
    public func fetchAll(_ conn: Connection) throws -> [(repeat (each Selected).Value)] {
        let statement = try selectStatement(in: conn, limitedToFirst: false)
        defer { statement.reset() }
        let readers = Self.readers()
        var rows: [(repeat (each Selected).Value)] = []
        while try statement.step() {
            rows.append((repeat try (each readers).read(from: statement)))
        }
        return rows
    }

    /// The first row, or nil when there is none. Runs the query with `LIMIT 1`.
    @inlinable
    public func fetchOne(_ conn: Connection) throws -> (repeat (each Selected).Value)? {
        let statement = try selectStatement(in: conn, limitedToFirst: true)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let readers = Self.readers()
        return (repeat try (each readers).read(from: statement))
    }

    /// The number of rows the query returns.
    public func fetchCount(_ conn: Connection) throws -> Int {
        try clauses.countSQL().valueCursor(in: conn, as: Int.self).next() ?? 0
    }
}

extension JoinedQuery {
    /// The records and typed result columns `selection` returns (a tuple): a query whose rows
    /// are tuples of records and values. Return a table's columns to select its record (an
    /// optional record for a left-joined table, nil where the row has no match).
    /// ```swift
    /// .selectRecords { player, team in (player, team.name) }   // [(Player, String)]
    /// ```
    /// (A separate name from `select`: a closure returning a record would otherwise also fit
    /// `select` as a closure returning nothing.)
    public func selectRecords<each Selected: RowSelectable>(
        _ selection: (TableColumns<Base>, repeat each Joined) -> (repeat each Selected)
    ) -> RowSelectQuery<repeat each Selected> {
        var columns: [SQLSelection] = []
        let selected = selection(base, repeat each joined)
        for element in repeat each selected {
            columns.append(contentsOf: element.resultColumns)
        }
        var clauses = self.clauses
        clauses.selection = columns
        return RowSelectQuery(clauses: clauses)
    }
}

extension Query where Element: TableRecord {
    /// The record and typed result columns `selection` returns (a tuple): a query whose rows
    /// are tuples of records and values (see `JoinedQuery.selectRecords(_:)`).
    public func selectRecords<each Selected: RowSelectable>(
        _ selection: (TableColumns<Element>) -> (repeat each Selected)
    ) -> RowSelectQuery<repeat each Selected> {
        joinable.selectRecords(selection)
    }
}
