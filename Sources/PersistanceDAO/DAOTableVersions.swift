import Persistance

/// The table the DAO layer owns in every database it uses: the version of each versioned
/// table, by table name.
enum DAOTableVersions {
    static let tableName = "persistance_dao_table_versions"
    private static var quotedName: String { DAOStatementRenderer.quotedIdentifier(tableName) }

    static func create(in connection: Connection) throws {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(quotedName) (table_name TEXT PRIMARY KEY NOT NULL, version TEXT NOT NULL)")
    }

    /// The stored version of `table`, nil when there is none.
    static func version(of table: String, in connection: Connection) throws -> DAOVersion? {
        guard try tableExists(tableName, in: connection) else { return nil }
        guard let text = try connection.fetchOne(String.self, "SELECT version FROM \(quotedName) WHERE table_name = ?", [table]) else {
            return nil
        }
        guard let version = DAOVersion(text) else {
            throw DAOError(.invalidModule, "the stored version of table \(table) is not a version")
        }
        return version
    }

    static func setVersion(_ version: DAOVersion, of table: String, in connection: Connection) throws {
        try create(in: connection)
        try connection.execute(
            "INSERT OR REPLACE INTO \(quotedName) (table_name, version) VALUES (?, ?)", [table, version.description])
    }

    static func forget(_ table: String, in connection: Connection) throws {
        guard try tableExists(tableName, in: connection) else { return }
        try connection.execute("DELETE FROM \(quotedName) WHERE table_name = ?", [table])
    }

    static func tableExists(_ table: String, in connection: Connection) throws -> Bool {
        try connection.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [table]) != 0
    }
}
