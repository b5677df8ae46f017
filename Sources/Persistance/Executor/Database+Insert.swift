extension Database {
    /// Runs one `INSERT` (or `REPLACE`) statement in its own write and returns the rowid of
    /// the row it inserted, or nil when it inserted none: see
    /// ``Connection/executeInsert(_:_:)``. The rowid is read within the same write, so
    /// concurrent callers each get their own row's.
    /// - Throws: as ``Connection/executeInsert(_:_:)`` and ``Database/write(_:)-((Connection)->T)``.
    public func executeInsert(_ sql: String, _ arguments: StatementArguments = StatementArguments()) async throws -> Int64? {
        try await write { conn in try conn.executeInsert(sql, arguments) }
    }
}
