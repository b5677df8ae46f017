/// A transaction of any engine, as the portable API sees it: the block of
/// ``AsyncDatabase/read(_:)`` or ``AsyncDatabase/write(_:)`` receives one.
///
/// Tables, typed queries, schemas and migrations run on any `DatabaseTransaction`, so the
/// same persistence code runs on SQLite (``Database``) and on PostgreSQL
/// (`PersistancePostgres`'s `PostgresDatabase`):
///
/// ```swift
/// func register(_ player: inout Player, in db: some AsyncDatabase) async throws {
///     try await db.write { tx in try await Player.table.insert(&player, in: tx) }
/// }
/// ```
///
/// A transaction is valid only inside its block and is not `Sendable`: it stays on the task
/// that runs the block. Statements take their parameters as ``DatabaseValue``s in the
/// dialect's placeholders and return rows as ``Row``s; each engine converts to and from its
/// own types, so values read back exactly as on SQLite.
public protocol DatabaseTransaction {
    /// How this engine spells SQL.
    associatedtype Dialect: SQLDialect

    /// The dialect every statement of this transaction is written in.
    var dialect: Dialect { get }

    /// How this engine writes the document store's SQL (``PortableDocumentCollection``):
    /// ``SQLiteDocumentDialect`` unless the engine says otherwise.
    var documentDialect: any DocumentSQLDialect { get }

    /// Runs `sql` with `arguments` bound to its placeholders, in order, and returns the
    /// number of rows it inserted, updated or deleted.
    @discardableResult
    nonisolated(nonsending) func execute(_ sql: String, _ arguments: [DatabaseValue]) async throws -> Int

    /// Runs an `INSERT` and returns the key the engine generated for the row: the value of
    /// `keyColumn` (PostgreSQL's `RETURNING`), or the row id when `keyColumn` is nil or is
    /// the row id (SQLite). Nil when the statement inserted nothing.
    nonisolated(nonsending) func insert(
        _ sql: String, _ arguments: [DatabaseValue], returningKey keyColumn: String?
    ) async throws -> Int64?

    /// Runs a query and returns every row it selects.
    nonisolated(nonsending) func fetchAll(_ sql: String, _ arguments: [DatabaseValue]) async throws -> [Row]

    /// Runs a query that selects at most one row (a lookup by key, a count) and returns that
    /// row, or nil: an engine may run it more cheaply than ``fetchAll(_:_:)``. The default
    /// returns the first row of ``fetchAll(_:_:)``.
    nonisolated(nonsending) func fetchOne(_ sql: String, _ arguments: [DatabaseValue]) async throws -> Row?

    /// Runs a query and returns its rows as `Element`s, read by the reader `makeReader` makes
    /// from the result's column names (once, at the first row): an engine may read each row as
    /// it arrives instead of keeping them all as ``Row``s. The default reads the rows of
    /// ``fetchAll(_:_:)``.
    nonisolated(nonsending) func fetchAll<Element>(
        _ sql: String, _ arguments: [DatabaseValue],
        reading makeReader: (_ columnNames: [String]) throws -> RowReader<Element>
    ) async throws -> [Element]

    /// Runs a query and calls `body` with each row as it arrives, holding one row at a time
    /// (SQLite steps its statement; PostgreSQL streams with back-pressure), so any number of
    /// rows takes constant memory. Throwing from `body` stops the query.
    nonisolated(nonsending) func forEachRow(
        _ sql: String, _ arguments: [DatabaseValue], _ body: nonisolated(nonsending) (Row) async throws -> Void
    ) async throws

    /// Runs `body` in a savepoint nested in this transaction: released when it returns,
    /// rolled back (leaving the enclosing transaction as it was before) when it throws.
    @discardableResult
    nonisolated(nonsending) func savepoint<T>(_ body: nonisolated(nonsending) (Self) async throws -> T) async throws -> T

    /// The tables this transaction has found; engines keep one record per transaction (the
    /// default, a new record each time, remembers nothing).
    var tablesFound: TablesFound { get }

    /// What the database holds of the table `name`: its columns and index names, or nil
    /// when there is no such table. Schema reconciliation compares it with a declaration.
    nonisolated(nonsending) func tableCatalog(_ name: String) async throws -> TableCatalog?

    /// Whether the database holds the table `name` (the tables ``tableCatalog(_:)`` describes):
    /// what the portable table operations ask once per transaction, which an engine may answer
    /// more cheaply than the whole catalog entry. The default asks ``tableCatalog(_:)``.
    nonisolated(nonsending) func tableExists(_ name: String) async throws -> Bool

    /// Waits until no other process changes the schema, and keeps them waiting until this
    /// transaction ends, so that migrations and table reconciliation run exactly once when
    /// several app instances start together: PostgreSQL takes a transaction-scoped advisory
    /// lock; SQLite's write transaction already excludes every other writer.
    nonisolated(nonsending) func serializeSchemaChanges() async throws

    /// Announces `event`, a change this transaction made to the document collection
    /// `collection`, on the database's ``AsyncDatabase/documentEvents(of:)`` once the
    /// transaction commits; dropped if it, or the savepoint it was made in, rolls back.
    /// ``PortableDocumentCollection`` calls it for every change it writes. The default
    /// announces nothing.
    func announceAfterCommit(_ event: DocumentEvent, of collection: String) throws
}

extension DatabaseTransaction {
    /// SQLite's document SQL.
    public var documentDialect: any DocumentSQLDialect { SQLiteDocumentDialect() }
}

extension DatabaseTransaction {
    /// The first row of ``fetchAll(_:_:)``.
    nonisolated(nonsending) public func fetchOne(_ sql: String, _ arguments: [DatabaseValue]) async throws -> Row? {
        try await fetchAll(sql, arguments).first
    }

    /// The rows of ``fetchAll(_:_:)``, each read by one reader made from the first row's columns.
    nonisolated(nonsending) public func fetchAll<Element>(
        _ sql: String, _ arguments: [DatabaseValue],
        reading makeReader: (_ columnNames: [String]) throws -> RowReader<Element>
    ) async throws -> [Element] {
        let rows = try await fetchAll(sql, arguments)
        guard let first = rows.first else { return [] }
        let reader = try makeReader(first.columnNames)
        return try rows.map(reader.read)
    }
}

extension DatabaseTransaction {
    /// Whether ``tableCatalog(_:)`` has an entry for `name`.
    nonisolated(nonsending) public func tableExists(_ name: String) async throws -> Bool {
        try await tableCatalog(name) != nil
    }
}

extension DatabaseTransaction {
    /// A record that remembers nothing: every portable table operation looks its table up.
    public var tablesFound: TablesFound { TablesFound() }
}

extension DatabaseTransaction {
    /// Announces nothing: an engine without document events.
    public func announceAfterCommit(_ event: DocumentEvent, of collection: String) throws {}
}

/// The columns and indexes a database holds for one table, as ``DatabaseTransaction/tableCatalog(_:)``
/// reads them.
public struct TableCatalog: Sendable, Hashable {
    /// The column names, in table order.
    public var columns: [String]
    /// The names of the table's indexes (the engine's own, for keys and unique columns, included).
    public var indexes: Set<String>

    /// A catalog entry.
    public init(columns: [String], indexes: Set<String>) {
        self.columns = columns
        self.indexes = indexes
    }
}
