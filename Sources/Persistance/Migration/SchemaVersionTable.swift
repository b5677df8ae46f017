/// The table in which the library keeps a database's schema version: one row,
/// `persistance_schema_version(id = 1, version TEXT)`.
enum SchemaVersionTable {
    static let name = "persistance_schema_version"

    /// What a database says about its schema version.
    enum State: Equatable {
        /// Nothing in the schema at all: a brand-new database.
        case empty
        /// Tables exist but no version table: created before a migrator was configured.
        case unversioned
        /// The stored version.
        case versioned(String)
    }

    /// Reads the state; call inside the transaction that acts on it.
    static func state(in connection: Connection) throws -> State {
        let hasTable = try connection.fetchOne(
            Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [name]) == 1
        if hasTable {
            guard let version = try connection.fetchOne(String.self, "SELECT version FROM \"\(name)\" WHERE id = 1")
            else {
                throw DatabaseError.unknownSchemaVersion("the table \(name) holds no version")
            }
            return .versioned(version)
        }
        let objectCount = try connection.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") ?? 0
        return objectCount == 0 ? .empty : .unversioned
    }

    /// Stores `version`, creating the table if needed.
    static func write(_ version: String, in connection: Connection) throws {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \"\(name)\" (id INTEGER PRIMARY KEY CHECK (id = 1), version TEXT NOT NULL)")
        try connection.execute("INSERT OR REPLACE INTO \"\(name)\" (id, version) VALUES (1, ?)", [version])
    }
}
