/// The SQL text of a table's portable operations in one dialect: the table's fixed
/// statements (`TableStatements`) and those only the portable operations use. A class: every
/// operation takes it from the cache, one reference rather than a copy of every string.
final class PortableStatements<Dialect: SQLDialect>: Sendable {
    /// The fixed statements, in this dialect.
    let table: TableStatements<Dialect>
    /// `INSERT` of every column but the primary key (parameter `n` for the `n`th of the
    /// others), for a record whose key the engine generates: PostgreSQL's identity columns
    /// refuse an explicit NULL. Nil for a table without a primary key column.
    let insertWithoutKey: String?
    /// `SELECT COUNT(*)` of the whole table.
    let count: String
    /// The slots `insertWithoutKey` binds, in order.
    let slotsWithoutKey: [Int]

    init(_ schema: TableSchema, _ dialect: Dialect) {
        table = schema.statements(in: dialect)
        if let keySlot = schema.primaryKeySlot {
            let slots = schema.columns.indices.filter { $0 != keySlot }
            slotsWithoutKey = slots
            insertWithoutKey = TableStatements<Dialect>.insert(
                into: table.quotedName, table.quotedColumns, schema.columns, slots: slots, dialect)
        } else {
            slotsWithoutKey = []
            insertWithoutKey = nil
        }
        count = "SELECT COUNT(*) FROM \(table.quotedName)"
    }

    /// `SELECT` of the column `keyExpression` (quoted SQL) of the rows whose `column` (quoted
    /// SQL) is parameter 1.
    func select(_ keyExpression: String, whereColumn column: String) -> String {
        "SELECT \(keyExpression) FROM \(table.quotedName) WHERE \(column) = \(table.placeholder(1))"
    }
}

/// A table's `PortableStatements`, rendered the first time a dialect type asks and kept:
/// a dialect type writes the same text for the same table every time.
final class PortableStatementsCache: Sendable {
    private let byDialect = Guarded<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    /// The statements of `schema` in `dialect`.
    func statements<Dialect: SQLDialect>(of schema: TableSchema, in dialect: Dialect) -> PortableStatements<Dialect> {
        let key = ObjectIdentifier(Dialect.self)
        // Only `PortableStatements<Dialect>` is stored under `Dialect`'s key.
        if let cached = byDialect.withLock({ $0[key] }) { return unsafeDowncast(cached, to: PortableStatements<Dialect>.self) }
        let rendered = PortableStatements(schema, dialect)
        byDialect.withLock { $0[key] = rendered }
        return rendered
    }
}
