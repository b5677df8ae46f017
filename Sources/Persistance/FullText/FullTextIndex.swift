/// A full-text index over some text columns of a table, kept in step with the table by
/// triggers: every insert, update and delete through any API (or raw SQL) updates it.
///
/// It is FTS5 on the `SystemSQLite` build and FTS4 on the `SQLCipher` build (whose SQLite
/// 3.15 has no FTS5); the Swift API, the query forms and the results are the same on both.
/// The index stores only its tokens ("external content"): the text stays in the table.
/// ```swift
/// let search = FullTextIndex("note_search", on: notes, columns: ["title", "body"])
/// try search.create(in: conn)                                 // once; indexes existing rows
/// let hits = try search.search("café", limit: 10, in: conn)   // best first
/// let recent = try notes.query().filter(search.matches("café")).order(Column("id").desc).fetchAll(conn)
/// ```
public struct FullTextIndex<Element: Record>: Sendable {
    /// The index's name: the name of its virtual table, and the prefix of its triggers.
    public let name: String
    /// The table whose rows are indexed.
    public let table: Table<Element>
    /// The indexed columns, in order.
    public let columns: [String]
    /// How text is split into tokens.
    public let tokenizer: FullTextTokenizer

    /// The engine's SQL: FTS5 where SQLite has it, else FTS4.
    let dialect: FullTextDialect

    /// Declares a full-text index named `name` over `columns` of `table`.
    public init(_ name: String, on table: Table<Element>, columns: [String], tokenizer: FullTextTokenizer = .unicode61()) {
        self.init(name, on: table, columns: columns, tokenizer: tokenizer, dialect: .current)
    }

    /// Declares an index in a given dialect: FTS4 on an engine that also has FTS5, to compare them.
    init(_ name: String, on table: Table<Element>, columns: [String], tokenizer: FullTextTokenizer, dialect: FullTextDialect) {
        self.name = name
        self.table = table
        self.columns = columns
        self.tokenizer = tokenizer
        self.dialect = dialect
    }

    /// Why the declaration is unusable, or nil.
    var declarationError: DatabaseError? {
        if columns.isEmpty { return .invalidFullTextIndex(name, "no columns") }
        let declared = Set(table.columns.map { RowColumns.fold($0.name) })
        if let unknown = columns.first(where: { !declared.contains(RowColumns.fold($0)) }) {
            return .invalidFullTextIndex(name, "table \"\(table.name)\" declares no column \"\(unknown)\"")
        }
        if Set(columns.map(RowColumns.fold)).count != columns.count {
            return .invalidFullTextIndex(name, "a column is listed twice")
        }
        return nil
    }

    /// Creates the table (unless it exists), the index and its triggers, and indexes the rows
    /// already in the table; does nothing when the index exists. Atomic.
    public func create(in connection: Connection) throws {
        if let declarationError { throw declarationError }
        try connection.savepoint {
            try table.create(in: connection)
            let isNew = try !exists(in: connection)
            try connection.execute(dialect.createSQL(index: name, table: table.name, columns: columns, tokenizer: tokenizer))
            for sql in dialect.triggerSQL(index: name, table: table.name, columns: columns) {
                try connection.execute(sql)
            }
            if isNew { try rebuild(in: connection) }
        }
    }

    /// Indexes every row of the table again, from scratch: after rows were changed with the
    /// triggers absent, for instance.
    public func rebuild(in connection: Connection) throws {
        try connection.execute(dialect.rebuildSQL(index: name))
    }

    /// Drops the index and its triggers, if they exist; the table is untouched.
    public func drop(in connection: Connection) throws {
        try connection.savepoint {
            for trigger in dialect.triggerNames(index: name) {
                try connection.execute("DROP TRIGGER IF EXISTS \(TableSchema.quote(trigger))")
            }
            try connection.execute("DROP TABLE IF EXISTS \(TableSchema.quote(name))")
        }
    }

    /// Whether the index exists in the connection's main database.
    public func exists(in connection: Connection) throws -> Bool {
        let count = try connection.fetchOne(
            Int.self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [name])
        return count ?? 0 > 0
    }
}
