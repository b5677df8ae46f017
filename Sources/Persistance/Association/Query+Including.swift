extension Query {
    /// This query's records, each with what `association` loads for it: one query for the
    /// records, then one per association level for all of them together.
    /// ```swift
    /// let teams = try Team.table.query().order(Team.columns.name).including(Team.players).fetchAll(conn)
    /// for (team, players) in teams { … }
    /// ```
    public func including<Loaded: Association>(_ association: Loaded) -> QueryIncluding<Element, Loaded>
    where Loaded.Owner == Element {
        QueryIncluding(query: self, association: association)
    }
}

/// A query whose records come with what an association loads for each (see
/// `Query.including(_:)`): fetched as `(record, loaded)` pairs.
public struct QueryIncluding<Element: Record, Loaded: Association>: Sendable where Loaded.Owner == Element {
    /// The query of the owners.
    public let query: Query<Element>
    /// What each owner comes with.
    public let association: Loaded

    /// Every matching record, in the query's order, with its associated values. Inlinable,
    /// like the record fetches, so that loading is specialized for the records and the
    /// association in the caller's module.
    @inlinable
    public func fetchAll(_ conn: Connection) throws -> [(Element, Loaded.Loaded)] {
        try fetch(query, in: conn)
    }

    /// The first matching record with its associated values, or nil when there is none.
    @inlinable
    public func fetchOne(_ conn: Connection) throws -> (Element, Loaded.Loaded)? {
        try fetch(query.limit(1), in: conn).first
    }

    @inlinable
    func fetch(_ query: Query<Element>, in conn: Connection) throws -> [(Element, Loaded.Loaded)] {
        var owners = [Element]()
        var keys = [DatabaseValue]()
        do {
            let statement = try query.selectStatement(in: conn, limitedToFirst: false)
            defer { statement.reset() }
            let decoder = try Element.rowDecoder(for: statement)
            let keyIndex = try statement.associationColumn(association.ownerKey, of: query.tableName)
            // The connection is checked at the first step only, as in the record fetches.
            if try statement.step() {
                repeat {
                    owners.append(try decoder.decode(statement))
                    keys.append(statement.column(at: keyIndex))
                } while try statement.stepToNextRow()
            }
        }
        let loaded = try association.load(forKeys: keys, in: conn)
        var fetched = [(Element, Loaded.Loaded)]()
        fetched.reserveCapacity(owners.count)
        for (owner, key) in zip(owners, keys) {
            fetched.append((owner, loaded[key] ?? association.loadedWithoutRecords))
        }
        return fetched
    }
}
