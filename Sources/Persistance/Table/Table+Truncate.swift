extension Table {
    /// Deletes every row and starts the `AUTOINCREMENT` sequence over, so the next row gets
    /// id 1; atomic, without `VACUUM`.
    public func truncate(in connection: Connection) throws {
        try onFirstUse(in: connection) {
            try connection.savepoint {
                try connection.cachedStatement("DELETE FROM \(schema.quotedName)").execute()
                let hasSequence = try connection.fetchOne(
                    Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
                if hasSequence ?? 0 > 0 {
                    try connection.cachedStatement("DELETE FROM sqlite_sequence WHERE name = ? COLLATE NOCASE")
                        .execute([name])
                }
            }
        }
    }
}
