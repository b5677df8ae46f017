extension Table {
    /// The records `sql` selects, created on first use. Inlinable, like the finds that use
    /// it, so that the loop is specialized for the record type in the caller's module.
    @inlinable
    func fetchAll(_ sql: String, _ arguments: StatementArguments, in connection: Connection) throws -> [Element] {
        try withRows(of: sql, in: connection, binding: { try $0.bind(arguments) }) { statement, decoder in
            try statement.collectRecords(decoder)
        }
    }

    /// The first record `sql` selects, created on first use.
    @inlinable
    func fetchFirst(_ sql: String, _ arguments: StatementArguments, in connection: Connection) throws -> Element? {
        try fetchFirst(sql, in: connection) { try $0.bind(arguments) }
    }

    /// The first record `sql` selects with the parameters `bind` binds, created on first use.
    @inlinable
    func fetchFirst(_ sql: String, in connection: Connection, binding bind: (Statement) throws -> Void) throws -> Element? {
        try withRows(of: sql, in: connection, binding: bind) { statement, decoder in
            try statement.step() ? try decoder.decode(statement) : nil
        }
    }

    /// Runs `read` with the cached statement of `sql`, bound by `bind`, and the record
    /// decoder for it; resets the statement when done. `read` must not run statements on
    /// `connection`.
    @inlinable
    func withRows<Result>(
        of sql: String, in connection: Connection, binding bind: (Statement) throws -> Void,
        _ read: (Statement, Element.RowDecoder) throws -> Result
    ) throws -> Result {
        try onFirstUse(in: connection) {
            let statement = try connection.cachedStatement(sql)
            try bind(statement)
            defer { statement.reset() }
            return try read(statement, try Element.rowDecoder(for: statement))
        }
    }

    /// Runs `body` with the placeholders of each chunk of `values` (so that no statement
    /// exceeds SQLite's parameter limit), binding `leading` values before each chunk.
    /// Nothing runs for an empty `values`.
    @usableFromInline
    func forEachChunk(
        of values: [DatabaseValue], leading: [DatabaseValue] = [],
        _ body: (_ placeholders: String, _ arguments: StatementArguments) throws -> Void
    ) throws {
        let size = max(1, Self.maximumListLength - leading.count)
        var start = 0
        while start < values.count {
            let chunk = values[start..<min(start + size, values.count)]
            let placeholders = schema.statements.placeholders(from: leading.count + 1, count: chunk.count)
            try body(placeholders, StatementArguments(leading + chunk))
            start += size
        }
    }

    /// The most values one `IN (…)` list binds; SQLite before 3.32 allows 999 parameters.
    private static var maximumListLength: Int { 500 }
}
