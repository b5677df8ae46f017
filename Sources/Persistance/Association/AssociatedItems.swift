/// What eager loading makes of the records an association fetches: the records themselves,
/// or each with what a nested association loads for it.
@usableFromInline
protocol AssociatedItems<Target, Item>: Sendable {
    associatedtype Target
    associatedtype Item
    /// The records' column whose values a nested association needs; nil when each record is
    /// its own item.
    var nestedKeyColumn: String? { get }
    /// Records grouped by key, as items: called only when `nestedKeyColumn` is nil, for the
    /// records grouped as they were read.
    func itemsGroupedByKey(_ records: [DatabaseValue: [Target]]) -> [DatabaseValue: [Item]]
    /// The items of `records`, whose `nestedKeyColumn` holds `nestedKeys`.
    func items(for records: [Target], nestedKeys: [DatabaseValue], in conn: Connection) throws -> [Item]
}

/// Each record is its own item.
struct RecordsAsItems<Target>: AssociatedItems {
    var nestedKeyColumn: String? { nil }

    func itemsGroupedByKey(_ records: [DatabaseValue: [Target]]) -> [DatabaseValue: [Target]] {
        records
    }

    func items(for records: [Target], nestedKeys: [DatabaseValue], in conn: Connection) -> [Target] {
        records
    }
}

/// Each record with what `nested` loads for it, in one query for all the records.
struct RecordsWithNested<Nested: Association>: AssociatedItems {
    let nested: Nested

    var nestedKeyColumn: String? { nested.ownerKey }

    func itemsGroupedByKey(_ records: [DatabaseValue: [Nested.Owner]]) -> [DatabaseValue: [(Nested.Owner, Nested.Loaded)]] {
        preconditionFailure("records with a nested association are not their own items")
    }

    func items(
        for records: [Nested.Owner], nestedKeys: [DatabaseValue], in conn: Connection
    ) throws -> [(Nested.Owner, Nested.Loaded)] {
        let loaded = try nested.load(forKeys: nestedKeys, in: conn)
        return zip(records, nestedKeys).map { record, key in (record, loaded[key] ?? nested.loadedWithoutRecords) }
    }
}
