extension Table {
    /// The records `sql` selects, created on first use. Inlinable, like the finds that use
    /// it, so that the loop is specialized for the record type in the caller's module.
    @inlinable
    func fetchAll(_ sql: String, _ arguments: StatementArguments, in connection: Connection) throws -> [Element] {
        try fetch(sql, arguments, in: connection, limit: .max)
    }

    /// The first record `sql` selects, created on first use.
    @inlinable
    func fetchFirst(_ sql: String, _ arguments: StatementArguments, in connection: Connection) throws -> Element? {
        try fetch(sql, arguments, in: connection, limit: 1).first
    }

    /// At most `limit` records that `sql` selects, decoded with a decoder resolved once for
    /// the statement. The decoder must not run statements on `connection`.
    @inlinable
    func fetch(
        _ sql: String, _ arguments: StatementArguments, in connection: Connection, limit: Int
    ) throws -> [Element] {
        try onFirstUse(in: connection) {
            let statement = try connection.cachedStatement(sql)
            try statement.bind(arguments)
            defer { statement.reset() }
            let decoder = try Element.rowDecoder(for: statement)
            var records = [Element]()
            while records.count < limit, try statement.step() {
                records.append(try decoder.decode(statement))
            }
            return records
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
            try body(TableSchema.placeholders(chunk.count), StatementArguments(leading + chunk))
            start += size
        }
    }

    /// The most values one `IN (…)` list binds; SQLite before 3.32 allows 999 parameters.
    private static var maximumListLength: Int { 500 }
}
