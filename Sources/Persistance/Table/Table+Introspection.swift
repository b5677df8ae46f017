/// A column as SQLite reports it (`PRAGMA table_info`).
public struct TableColumnInfo: Sendable, Hashable {
    /// The column's position, from 0.
    public var position: Int
    /// The column's name.
    public var name: String
    /// The declared type, as written (`INTEGER`, `TEXT`, …; empty when none).
    public var type: String
    /// Whether the column is `NOT NULL`.
    public var isNotNull: Bool
    /// The default value's SQL text, as written (`0`, `'x'`, …), or nil.
    public var defaultSQL: String?
    /// The column's position in the primary key, from 1; 0 when it is not part of it.
    public var primaryKeyPosition: Int
}

/// An index as SQLite reports it (`PRAGMA index_list` and `PRAGMA index_info`).
public struct TableIndexInfo: Sendable, Hashable {
    /// The index's name (`sqlite_autoindex_…` for those UNIQUE and PRIMARY KEY constraints make).
    public var name: String
    /// The indexed columns, in order.
    public var columns: [String]
    /// Whether the index is `UNIQUE`.
    public var isUnique: Bool
    /// How it was made: `c` by `CREATE INDEX`, `u` by a UNIQUE constraint, `pk` by a PRIMARY KEY.
    public var origin: String
}

extension TableColumnInfo {
    /// The affinity SQLite gives the declared type (its rules, in order: `INT` → INTEGER;
    /// `CHAR`, `CLOB` or `TEXT` → TEXT; `BLOB` or no type → BLOB; `REAL`, `FLOA` or `DOUB` →
    /// REAL; anything else → NUMERIC).
    public var affinity: ColumnDefinition.Affinity {
        let type = self.type.uppercased()
        if type.contains("INT") { return .integer }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .text }
        if type.contains("BLOB") || type.isEmpty { return .blob }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .real }
        return .numeric
    }

    /// The columns of the table `table` as SQLite reports them; empty when it does not exist.
    static func fetch(table: String, in connection: Connection) throws -> [TableColumnInfo] {
        try SQLiteCatalog.columnRows(of: table, in: connection).map { row in
            TableColumnInfo(
                position: try row.value(named: "cid"), name: try row.value(named: "name"),
                type: try row.value(named: "type"), isNotNull: try row.value(named: "notnull"),
                defaultSQL: try row.value(named: "dflt_value"), primaryKeyPosition: try row.value(named: "pk"))
        }
    }
}

extension TableIndexInfo {
    /// The indexes of the table `table` as SQLite reports them, sorted by name; empty when it
    /// does not exist.
    static func fetch(table: String, in connection: Connection) throws -> [TableIndexInfo] {
        try SQLiteCatalog.indexRows(of: table, in: connection).map { row in
            let name: String = try row.value(named: "name")
            return TableIndexInfo(
                name: name, columns: try columns(ofIndex: name, in: connection), isUnique: try row.value(named: "unique"),
                origin: try row.value(named: "origin"))
        }.sorted { $0.name < $1.name }
    }

    /// The columns of the index `index`, in order.
    static func columns(ofIndex index: String, in connection: Connection) throws -> [String] {
        try SQLiteCatalog.indexColumnRows(of: index, in: connection).map { column in
            try column.value(named: "name", as: String.self)
        }
    }
}

extension Table {
    /// The table's columns as SQLite reports them; empty when the table does not exist.
    public func columnInfo(in connection: Connection) throws -> [TableColumnInfo] {
        try TableColumnInfo.fetch(table: name, in: connection)
    }

    /// The table's indexes as SQLite reports them, sorted by name; empty when the table does not exist.
    public func indexInfo(in connection: Connection) throws -> [TableIndexInfo] {
        try TableIndexInfo.fetch(table: name, in: connection)
    }
}
