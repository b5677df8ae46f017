/// The records of an association's target table whose `keyColumn` holds given keys, grouped
/// by key, each turned into the association's item (the record, or the record with what a
/// nested association loads for it).
///
/// The loading is inlinable, like the record fetches: the row loop and the grouping are
/// specialized for the record and item types in the caller's module.
@usableFromInline
struct AssociatedRecords<Target: Record, Item>: Sendable {
    /// The target's rows, filtered and ordered as the association says.
    @usableFromInline let query: Query<Target>
    /// The target's column matched against the owners' keys.
    @usableFromInline let keyColumn: String
    /// What each fetched record becomes.
    @usableFromInline let items: any AssociatedItems<Target, Item>

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
    @inlinable
    func grouped(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: [Item]] {
        let chunks = try keyChunks(keys, in: conn)
        let keyCount = chunks.reduce(0) { $0 + $1.count }
        guard items.nestedKeyColumn != nil else {
            // Each record is its own item: grouped as the rows are read.
            var grouped = RecordsByKey<Target>(keyCount: keyCount)
            for chunk in chunks {
                try forEachRecord(forKeys: chunk, in: conn) { record, key, _ in grouped.add(record, key: key) }
            }
            return items.itemsGroupedByKey(grouped.finish())
        }
        var records = [Target]()
        var recordKeys = [DatabaseValue]()
        var nestedKeys = [DatabaseValue]()
        for chunk in chunks {
            try forEachRecord(forKeys: chunk, in: conn) { record, key, nestedKey in
                records.append(record)
                recordKeys.append(key)
                nestedKeys.append(nestedKey ?? .null)
            }
        }
        let items = try self.items.items(for: records, nestedKeys: nestedKeys, in: conn)
        var grouped = [DatabaseValue: [Item]](minimumCapacity: keyCount)
        for (item, key) in zip(items, recordKeys) {
            grouped[key, default: []].append(item)
        }
        return grouped
    }

    /// The distinct non-NULL `keys`, in chunks that one query can bind: SQLite's parameter
    /// limit less the query's own values.
    @usableFromInline
    func keyChunks(_ keys: [DatabaseValue], in conn: Connection) throws -> [ArraySlice<DatabaseValue>] {
        var seen = Set<DatabaseValue>(minimumCapacity: keys.count)
        let distinct = keys.filter { !$0.isNull && seen.insert($0).inserted }
        guard !distinct.isEmpty else { return [] }
        let size = try Swift.max(1, conn.variableLimit() - query.clauses.selectSQL().values.count)
        return stride(from: 0, to: distinct.count, by: size).map { distinct[$0..<Swift.min($0 + size, distinct.count)] }
    }

    /// Runs `body` with each record whose `keyColumn` holds one of `keys`, its key and, when
    /// the items need one, its nested key.
    @inlinable
    func forEachRecord(
        forKeys keys: ArraySlice<DatabaseValue>, in conn: Connection,
        _ body: (Target, _ key: DatabaseValue, _ nestedKey: DatabaseValue?) throws -> Void
    ) throws {
        let statement = try selectStatement(forKeys: keys, in: conn)
        defer { statement.reset() }
        let decoder = try Target.rowDecoder(for: statement)
        let keyIndex = try statement.associationColumn(keyColumn, of: query.tableName)
        let nestedIndex = try items.nestedKeyColumn.map { try statement.associationColumn($0, of: query.tableName) }
        // The connection is checked at the first step only, as in the record fetches.
        guard try statement.step() else { return }
        repeat {
            try body(try decoder.decode(statement), statement.column(at: keyIndex), nestedIndex.map(statement.column(at:)))
        } while try statement.stepToNextRow()
    }

    /// The query's `SELECT` of the records whose `keyColumn` holds one of `keys`, bound.
    @usableFromInline
    func selectStatement(forKeys keys: ArraySlice<DatabaseValue>, in conn: Connection) throws -> Statement {
        try query.filter(Column(keyColumn).in(keys)).selectStatement(in: conn, limitedToFirst: false)
    }
}

extension Statement {
    /// The index of `column`, which an association reads from the rows of `table`.
    @usableFromInline
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
