import Synchronization

/// The transaction a portable block of a SQLite ``Database`` receives (its
/// ``AsyncDatabase`` conformance): ``DatabaseTransaction`` over the ``Connection`` that the
/// database's writer (or one of its readers) lends to the block.
///
/// Statements come from the connection's statement cache, as with the synchronous API. Each
/// runs on the task's current thread, with the connection confined to that thread for the
/// statement's length: the pool thread that owns the connection is blocked meanwhile,
/// waiting for the block to end.
///
/// Valid only inside its block: used afterwards (kept in a variable that outlives the
/// block), every method throws `DatabaseError.Kind.misuse` without touching the connection,
/// which by then belongs to other blocks.
///
/// The connection itself is not handed out: the synchronous API (`Database.write { conn in … }`)
/// is the way to use SQLite-only features.
public final class SQLiteTransaction: DatabaseTransaction {
    public let dialect = SQLiteDialect()
    private let connection: Connection
    /// The tables found so far in this transaction.
    public let tablesFound = TablesFound()
    /// Whether the block is still running; cleared, once, when it returns.
    private let isOpen = Atomic<Bool>(true)

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// Ends the transaction's validity: called when its block returns, before the connection
    /// goes back to its pool thread.
    func end() {
        isOpen.store(false, ordering: .releasing)
    }

    /// Runs `body` with the connection confined to the calling thread, after checking that the
    /// block is still running. Never spans a suspension.
    private func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
        guard isOpen.load(ordering: .acquiring) else {
            throw DatabaseError.misuse("a SQLiteTransaction was used after its read or write block ended")
        }
        var result: R?
        try connection.whileConfinedToCurrentThread { result = try body(connection) }
        return result!
    }

    @discardableResult
    public func execute(_ sql: String, _ arguments: [DatabaseValue]) async throws -> Int {
        let arguments = StatementArguments(positional: arguments)
        return try withConnection { connection in
            // `changes` keeps the count of the last INSERT, UPDATE or DELETE: a statement that
            // changes nothing (DDL, a SELECT) must not report it again.
            let before = connection.totalChanges
            try connection.execute(sql, arguments)
            return connection.totalChanges == before ? 0 : connection.changes
        }
    }

    /// Runs an `INSERT` and returns the row id of the row it inserted, nil when it inserted
    /// none. `keyColumn` is ignored: SQLite keys are row ids.
    public func insert(_ sql: String, _ arguments: [DatabaseValue], returningKey keyColumn: String?) async throws -> Int64? {
        let arguments = StatementArguments(positional: arguments)
        return try withConnection { connection in try connection.executeInsert(sql, arguments) }
    }

    public func fetchAll(_ sql: String, _ arguments: [DatabaseValue]) async throws -> [Row] {
        let arguments = StatementArguments(positional: arguments)
        return try withConnection { connection in try connection.fetchAll(sql, arguments) }
    }

    public func fetchOne(_ sql: String, _ arguments: [DatabaseValue]) async throws -> Row? {
        let arguments = StatementArguments(positional: arguments)
        return try withConnection { connection in try connection.fetchOne(sql, arguments) }
    }

    public func forEachRow(
        _ sql: String, _ arguments: [DatabaseValue], _ body: nonisolated(nonsending) (Row) async throws -> Void
    ) async throws {
        let arguments = StatementArguments(positional: arguments)
        let cursor = try withConnection { connection in try connection.fetchCursor(sql, arguments) }
        do {
            // The statement stays open between rows, across `body`'s suspensions: the cache
            // hands out another statement for the same SQL meanwhile (the cursor marks it busy).
            while let row = try withConnection({ _ in try cursor.next() }) {
                try await body(row)
            }
        } catch {
            try? withConnection { _ in cursor.finish() }
            throw error
        }
    }

    @discardableResult
    public func savepoint<T>(_ body: nonisolated(nonsending) (SQLiteTransaction) async throws -> T) async throws -> T {
        // The same savepoint names as `Connection.savepoint`, by depth, so the two nest.
        let name = try withConnection { connection in
            connection.savepointDepth += 1
            let name = "\"persistance_savepoint_\(connection.savepointDepth)\""
            do {
                try connection.execute("SAVEPOINT \(name)")
            } catch {
                connection.savepointDepth -= 1
                throw error
            }
            return name
        }
        let result: T
        do {
            result = try await body(self)
        } catch {
            try? withConnection { connection in
                defer { connection.savepointDepth -= 1 }
                // SQLite may have rolled the whole transaction back by itself (an interrupt, a
                // full disk): the body's error is the one that matters.
                if connection.isInTransaction {
                    try? connection.execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
                }
            }
            throw error
        }
        try withConnection { connection in
            defer { connection.savepointDepth -= 1 }
            do {
                try connection.execute("RELEASE SAVEPOINT \(name)")
            } catch {
                if connection.isInTransaction {
                    try? connection.execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
                }
                throw error
            }
        }
        return result
    }

    public func tableCatalog(_ name: String) async throws -> TableCatalog? {
        try withConnection { connection in
            let columns = try SQLiteCatalog.columnRows(of: name, in: connection)
            guard !columns.isEmpty else { return nil }
            let indexes = try SQLiteCatalog.indexRows(of: name, in: connection)
            return TableCatalog(
                columns: try columns.map { try $0.value(named: "name", as: String.self) },
                indexes: Set(try indexes.map { try $0.value(named: "name", as: String.self) }))
        }
    }

    /// Attaches `event` to the connection's transaction, as ``DocumentCollection`` does: it
    /// comes on ``Database/documentEvents(of:)`` (and `DocumentCollection.events()`) when the
    /// transaction commits, and is dropped when it, or the savepoint it was made in, rolls back.
    public func announceAfterCommit(_ event: DocumentEvent, of collection: String) throws {
        try withConnection { connection in
            connection.changeRecorder?.attach(CollectionEvent(collection: collection, event: event))
        }
    }

    /// Does nothing: a SQLite write transaction already excludes every other writer, of this
    /// process and of others, until it ends (and a read changes no schema).
    public func serializeSchemaChanges() async throws {}
}

@available(*, unavailable, message: "a transaction stays on the task that runs its block")
extension SQLiteTransaction: Sendable {}

extension StatementArguments {
    /// Positional arguments that are database values already: nothing to convert.
    fileprivate init(positional values: [DatabaseValue]) {
        self.init()
        storage = .positional(values)
    }
}
