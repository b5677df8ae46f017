extension Table {
    /// The records `sql` selects, created on first use.
    func fetchAll(_ sql: String, _ arguments: StatementArguments, in connection: Connection) throws -> [Element] {
        try onFirstUse(in: connection) {
            try cursor(sql, arguments, in: connection).collect()
        }
    }

    /// The first record `sql` selects, created on first use.
    func fetchFirst(_ sql: String, _ arguments: StatementArguments, in connection: Connection) throws -> Element? {
        try onFirstUse(in: connection) {
            try cursor(sql, arguments, in: connection).next()
        }
    }

    /// A cursor decoding `sql`'s rows as records, with the decoder resolved once for the statement.
    private func cursor(
        _ sql: String, _ arguments: StatementArguments, in connection: Connection
    ) throws -> Cursor<Element> {
        let statement = try connection.cachedStatement(sql)
        try statement.bind(arguments)
        return Cursor(statement: statement, decode: try Element.rowDecoder(for: statement))
    }

    /// Runs `makeSQL` with the placeholders of each chunk of `values` (so that no statement
    /// exceeds SQLite's parameter limit), binding `leading` values before each chunk.
    /// Nothing runs for an empty `values`.
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
