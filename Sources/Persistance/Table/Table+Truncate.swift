extension Table {
    /// Deletes every row and starts the `AUTOINCREMENT` sequence over, so the next row gets
    /// id 1; atomic, without `VACUUM`.
    public func truncate(in connection: Connection) throws {
        try onFirstUse(in: connection) {
            try connection.savepoint {
                try connection.cachedStatement("DELETE FROM \(schema.quotedName)").execute()
                try SQLiteCatalog.resetAutoincrement(of: name, in: connection)
            }
        }
    }
}
