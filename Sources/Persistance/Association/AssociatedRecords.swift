/// The records of an association's target table whose `keyColumn` holds given keys, grouped
/// by key, each turned into the association's item (the record, or the record with what a
/// nested association loads for it).
struct AssociatedRecords<Target: Record, Item>: Sendable {
    /// The target's rows, filtered and ordered as the association says.
    let query: Query<Target>
    /// The target's column matched against the owners' keys.
    let keyColumn: String
    /// What each fetched record becomes.
    let items: any AssociatedItems<Target, Item>

    /// The records with no nested association: each item is the record.
    init(query: Query<Target>, keyColumn: String) where Item == Target {
        self.init(query: query, keyColumn: keyColumn, items: RecordsAsItems())
    }

    init(query: Query<Target>, keyColumn: String, items: any AssociatedItems<Target, Item>) {
        self.query = query
        self.keyColumn = keyColumn
        self.items = items
    }

    /// The same records, each paired with what `nested` loads for it.
    func including<Nested: Association>(_ nested: Nested) -> AssociatedRecords<Target, (Target, Nested.Loaded)>
    where Nested.Owner == Target, Item == Target {
        AssociatedRecords<Target, (Target, Nested.Loaded)>(
            query: query, keyColumn: keyColumn, items: RecordsWithNested(nested: nested))
    }

    /// The same association with its query changed.
    func withQuery(_ change: (Query<Target>) -> Query<Target>) -> AssociatedRecords {
        AssociatedRecords(query: change(query), keyColumn: keyColumn, items: items)
    }

    /// The items whose `keyColumn` holds one of `keys`, by key, in the query's order. The
    /// distinct non-NULL keys are bound in chunks that fit SQLite's parameter limit, beside
    /// the query's own values: one query for up to 999 keys on the oldest engines.
    func grouped(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: [Item]] {
        var seen = Set<DatabaseValue>()
        let distinct = keys.filter { !$0.isNull && seen.insert($0).inserted }
        guard !distinct.isEmpty else { return [:] }
        let chunkSize = try Swift.max(1, conn.variableLimit() - query.clauses.selectSQL().values.count)
        var records = [Target]()
        var recordKeys = [DatabaseValue]()
        var nestedKeys = [DatabaseValue]()
        var start = distinct.startIndex
        while start < distinct.endIndex {
            let end = Swift.min(start + chunkSize, distinct.endIndex)
            try fetch(
                keys: distinct[start..<end], in: conn, into: &records, keys: &recordKeys, nestedKeys: &nestedKeys)
            start = end
        }
        let items = try self.items.items(for: records, nestedKeys: nestedKeys, in: conn)
        // Grouped by position first, in concrete types: this code is not specialized for
        // `Item`, and each generic array operation per record would look its type up.
        var positionsByKey = [DatabaseValue: [Int]](minimumCapacity: distinct.count)
        for (position, key) in recordKeys.enumerated() {
            positionsByKey[key, default: []].append(position)
        }
        var grouped = [DatabaseValue: [Item]](minimumCapacity: positionsByKey.count)
        for (key, positions) in positionsByKey {
            grouped[key] = positions.map { items[$0] }
        }
        return grouped
    }

    /// Appends the records of one chunk of keys, their keys and their nested keys.
    private func fetch(
        keys: ArraySlice<DatabaseValue>, in conn: Connection, into records: inout [Target],
        keys recordKeys: inout [DatabaseValue], nestedKeys: inout [DatabaseValue]
    ) throws {
        let statement = try query.filter(Column(keyColumn).in(keys)).selectStatement(in: conn, limitedToFirst: false)
        defer { statement.reset() }
        let decoder = try Target.rowDecoder(for: statement)
        let keyIndex = try statement.associationColumn(keyColumn, of: query.tableName)
        let nestedIndex = try items.nestedKeyColumn.map { try statement.associationColumn($0, of: query.tableName) }
        while try statement.step() {
            records.append(try decoder.decode(statement))
            recordKeys.append(statement.column(at: keyIndex))
            if let nestedIndex { nestedKeys.append(statement.column(at: nestedIndex)) }
        }
    }
}

extension Statement {
    /// The index of `column`, which an association reads from the rows of `table`.
    func associationColumn(_ column: String, of table: String) throws -> Int {
        guard let index = columnIndex(named: column) else {
            throw DatabaseError(
                kind: .columnNotFound,
                message: "an association reads column \"\(column)\", which the query of \"\(table)\" does not select",
                column: column)
        }
        return index
    }
}
