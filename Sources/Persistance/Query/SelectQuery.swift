/// A query whose rows are tuples of typed values: what a typed `select` makes.
///
/// ```swift
/// let rows: [(String, String?)] = try Player.table.query()
///     .leftJoin(Team.self) { player, team in player.teamID == team.id }
///     .select { player, team in (player.name, team.name) }
///     .fetchAll(conn)
/// ```
/// Each value is read from its result column with its type's conversion; a value that does
/// not fit (a NULL where the type is not optional) is a decoding error.
public struct SelectQuery<each Value: DatabaseValueConvertible>: Sendable {
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

    /// Every row. Inlinable, so that reading the values is specialized for their types in
    /// the caller's module.
    @inlinable
    public func fetchAll(_ conn: Connection) throws -> [(repeat each Value)] {
        let statement = try selectStatement(in: conn, limitedToFirst: false)
        defer { statement.reset() }
        var rows: [(repeat each Value)] = []
        // The connection is checked at the first step only, as in the record fetches.
        guard try statement.step() else { return rows }
        repeat {
            rows.append(try Self.row(of: statement))
        } while try statement.stepToNextRow()
        return rows
    }

    /// The first row, or nil when there is none. Runs the query with `LIMIT 1`.
    @inlinable
    public func fetchOne(_ conn: Connection) throws -> (repeat each Value)? {
        let statement = try selectStatement(in: conn, limitedToFirst: true)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let row: (repeat each Value) = try SelectQuery<repeat each Value>.row(of: statement)
        return row
    }

    /// The number of rows the query returns.
    public func fetchCount(_ conn: Connection) throws -> Int {
        try clauses.countSQL().valueCursor(in: conn, as: Int.self).next() ?? 0
    }

    /// The current row of `statement`, one value per result column in order, each read by
    /// its type's `DatabaseValueConvertible.read(from:at:)`: a witness specialized for the
    /// type, so reading a row looks up no type metadata, whether or not the compiler
    /// specializes this loop over the values.
    @inlinable
    static func row(of statement: Statement) throws -> (repeat each Value) {
        var index = 0
        return try (repeat (each Value).read(from: statement, at: advancing(&index)))
    }

    /// The rows of this query and of `other`, each distinct row once (`UNION`).
    public func union(_ other: SelectQuery<repeat each Value>) -> SelectQuery {
        combined(with: other, by: .union)
    }

    /// The rows of this query and of `other`, duplicates kept (`UNION ALL`).
    public func unionAll(_ other: SelectQuery<repeat each Value>) -> SelectQuery {
        combined(with: other, by: .unionAll)
    }

    private func combined(with other: SelectQuery<repeat each Value>, by kind: CompoundMember.Kind) -> SelectQuery {
        var clauses = self.clauses
        clauses.compounds.append(CompoundMember(kind: kind, clauses: other.clauses))
        return SelectQuery(clauses: clauses)
    }

    /// Orders the rows by these terms, the first one first; replaces any previous order. In a
    /// union, order by result columns (`Column("alias")`, or the first query's columns).
    public func order(_ orderings: any SQLOrderable...) -> SelectQuery {
        var clauses = self.clauses
        clauses.ordering = orderings.map(\.sqlOrdering)
        return SelectQuery(clauses: clauses)
    }

    /// Returns at most `limit` rows, after skipping `offset` rows; replaces any previous limit.
    public func limit(_ limit: Int, offset: Int? = nil) -> SelectQuery {
        var clauses = self.clauses
        clauses.limit = limit
        clauses.offset = offset
        return SelectQuery(clauses: clauses)
    }

    /// Returns each distinct row once (`SELECT DISTINCT`).
    public func distinct() -> SelectQuery {
        var clauses = self.clauses
        clauses.isDistinct = true
        return SelectQuery(clauses: clauses)
    }
}

/// `index`, which then moves to the next column: the column of each value of a row in turn.
@inlinable @inline(__always)
func advancing(_ index: inout Int) -> Int {
    defer { index += 1 }
    return index
}
