/// The SQLite schema catalog, as the table layer reads it: `sqlite_master`, the
/// `sqlite_sequence` of `AUTOINCREMENT` keys, and the `table_info`, `index_list`, `index_info`
/// and `foreign_key_list` pragmas. SQLite-only: another engine has its own catalog, so these
/// queries live here rather than in the tables' statements (see ``SQLDialect``).
enum SQLiteCatalog {
    /// Whether the main database has a table named `table` (ASCII case-insensitive).
    static func hasTable(_ table: String, in connection: Connection) throws -> Bool {
        try connection.fetchOne(
            Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [table]
        ) ?? 0 > 0
    }

    /// The `CREATE TABLE` text SQLite stored for `table`, or nil when there is no such table.
    static func storedSQL(ofTable table: String, in connection: Connection) throws -> String? {
        try connection.fetchOne(
            String.self, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [table])
    }

    /// The type, table and stored name of the schema object `name` other than a trigger, if
    /// there is one.
    static func object(named name: String, in connection: Connection) throws -> (type: String, table: String, name: String)? {
        try connection.fetchOne(
            "SELECT type, tbl_name, name FROM sqlite_master WHERE name = ? COLLATE NOCASE AND type <> 'trigger'", [name]
        ).map { row in (try row.value(at: 0), try row.value(at: 1), try row.value(at: 2)) }
    }

    /// Starts the `AUTOINCREMENT` sequence of `table` over (when the database has one).
    static func resetAutoincrement(of table: String, in connection: Connection) throws {
        let hasSequence = try connection.fetchOne(
            Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
        if hasSequence ?? 0 > 0 {
            try connection.cachedStatement("DELETE FROM sqlite_sequence WHERE name = ? COLLATE NOCASE").execute([table])
        }
    }

    /// The rows of a PRAGMA, from a statement prepared afresh rather than cached: before
    /// SQLite 3.16 (SQLCipher's engine), a PRAGMA prepared while its table is missing has no
    /// result columns, and a cached statement kept that shape once the table existed.
    private static func pragmaRows(_ sql: String, in connection: Connection) throws -> [Row] {
        let statement = try connection.prepare(sql)
        return try statement.collectRecords(Row.rowDecoder(for: statement))
    }

    /// The rows of `PRAGMA table_info` for `table`: empty when it does not exist.
    static func columnRows(of table: String, in connection: Connection) throws -> [Row] {
        try pragmaRows("PRAGMA table_info(\(TableSchema.quote(table)))", in: connection)
    }

    /// The rows of `PRAGMA index_list` for `table`: empty when it does not exist.
    static func indexRows(of table: String, in connection: Connection) throws -> [Row] {
        try pragmaRows("PRAGMA index_list(\(TableSchema.quote(table)))", in: connection)
    }

    /// The rows of `PRAGMA index_info` for `index`, its columns in order.
    static func indexColumnRows(of index: String, in connection: Connection) throws -> [Row] {
        try pragmaRows("PRAGMA index_info(\(TableSchema.quote(index)))", in: connection)
    }

    /// The rows of `PRAGMA foreign_key_list` for `table`: empty when it has no foreign key.
    static func foreignKeyRows(of table: String, in connection: Connection) throws -> [Row] {
        try pragmaRows("PRAGMA foreign_key_list(\(TableSchema.quote(table)))", in: connection)
    }
}
