#if PostgreSQL
import Logging
import Persistance
import PostgresNIO

/// A transaction in progress on one connection: what a ``PostgresDatabase`` block receives, and
/// PostgreSQL's `DatabaseTransaction`, so tables, queries and migrations written against the
/// portable API run on it.
///
/// Statements take their arguments as `$1`, `$2`, …, always bound, never spliced into the SQL,
/// as `DatabaseValue`s each bound without a type so that the server reads it as its place in
/// the statement calls for (see `PostgresDialect`); rows come back as `Row`s holding the values
/// SQLite would have stored, so the same `DatabaseValueConvertible` conversions read them, as
/// strictly. A statement that fails aborts the whole transaction on PostgreSQL; run statements
/// whose failure the block means to survive in a ``savepoint(_:)``. A block that catches such
/// a failure and returns anyway is rolled back, and its call throws SQLSTATE 25P02.
///
/// Queries (``fetchAll(_:_:)``, ``fetchOne(_:_:)``, ``insert(_:_:returningKey:)``) run as
/// statements prepared once per connection (the 128 most recently used are kept); ``execute(_:_:)``
/// and ``forEachRow(_:_:_:)`` send their statement unnamed, parsed each time. A query prepared
/// before another connection changed its table fails (SQLSTATE 0A000 or class 42) and the
/// database runs the transaction again with the query prepared afresh.
///
/// Errors a statement throws: `DatabaseError.Kind.postgres` with the server's `sqlState` (and a
/// portable `condition`), its message never showing a bound value; `.statementTimeout`;
/// `.connectionLost` (the server rolls the transaction back); `.encoding` naming the parameter
/// for an argument PostgreSQL cannot hold (text with a NUL, NaN); `.decoding` naming the column
/// for a result column of a type with no portable value; `CancellationError` when the task is
/// cancelled, which cancels the running statement on the server.
public final class PostgresTransaction: DatabaseTransaction {
    private let connection: PostgresConnection
    /// The tables found: by the database's committed transactions, then by this one.
    public let tablesFound: TablesFound
    /// The database's record of them, which this transaction adds to when it commits.
    private let foundTables: FoundTables
    /// Whether ``tablesFound`` started with tables found before this transaction, which another
    /// may have dropped since: a statement that then finds no such table (42P01) makes the
    /// database forget them and run the transaction again.
    private let inheritsTables: Bool
    /// The transaction changed the schema: the tables it found may be gone once it commits.
    private var changedSchema = false
    private let watch: ConnectionWatch
    private let canceller: StatementCanceller
    private let address: String
    private var savepointDepth = 0
    /// A statement failed and no savepoint undid it: the server rejects everything until ROLLBACK.
    private var isAborted = false
    private var isConnectionLost = false
    /// ``forEachRow(_:_:_:)`` is reading a result: the connection can run nothing else until it ends.
    private var isStreaming = false
    /// The SQLSTATE of a statement prepared earlier on the connection that failed as one made
    /// stale by a schema change can (0A000 "cached plan must not change result type", or class
    /// 42: a parameter type the statement was prepared with no longer fits): its cache entry is
    /// gone, and the database runs the transaction again when this is the failure it ends with.
    /// Also 42P01 when the transaction started with tables found before (``inheritsTables``).
    private var staleStatementState: String?
    /// The document events to publish once the transaction commits (see `announceAfterCommit`).
    var documentEvents = PendingDocumentEvents()

    private static let quietLogger = Logger(label: "persistance.postgres.quiet") { _ in SwiftLogNoOpLogHandler() }

    /// The key of the advisory lock ``serializeSchemaChanges()`` takes: the 64-bit FNV-1a hash
    /// of `persistance.schema`, the same in every process.
    static let schemaLockKey: Int64 = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "persistance.schema".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }()

    init(
        connection: PostgresConnection, watch: ConnectionWatch, foundTables: FoundTables, canceller: StatementCanceller,
        address: String
    ) {
        self.connection = connection
        self.watch = watch
        self.foundTables = foundTables
        self.canceller = canceller
        self.address = address
        let found = foundTables.current
        tablesFound = TablesFound(found)
        inheritsTables = !found.isEmpty
    }

    /// PostgreSQL's dialect.
    public var dialect: PostgresDialect { PostgresDialect() }

    /// SQLSTATE `undefined_table`.
    private static let undefinedTable = "42P01"

    /// The command tags whose count is of rows changed.
    private static let changingCommands: Set<Substring> = ["INSERT", "UPDATE", "DELETE", "MERGE"]
    /// The first words of the command tags of statements that can change what a prepared
    /// statement returns (`ALTER TABLE`, `DROP VIEW`, `CREATE OR REPLACE VIEW`, …).
    private static let schemaCommands: Set<Substring> = ["ALTER", "CREATE", "DROP"]
    /// The schema commands that only add a table or an index, which no prepared statement
    /// reads yet: the `CREATE … IF NOT EXISTS` of every declared table and document collection.
    private static let addingCommands: Set<Substring> = ["CREATE TABLE", "CREATE INDEX"]
    /// The command tag of `DEALLOCATE name` and `DEALLOCATE ALL`, run by the app: the cache
    /// then forgets every statement it prepared.
    private static let deallocatingCommand: Substring = "DEALLOCATE"

    /// Runs a statement and returns the number of rows it inserted, updated or deleted (from the
    /// server's command tag; 0 for any other statement, a SELECT included).
    ///
    /// After a schema change (`ALTER`, `DROP`, a `CREATE` other than `CREATE TABLE` and `CREATE
    /// INDEX`), the statements prepared on the connection are deallocated, so that the
    /// statements after it in this transaction are prepared against the new schema. After a
    /// `DEALLOCATE` of the app's own, the statements are prepared again as they next run.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) async throws -> Int {
        let metadata = try await perform(sql, arguments).metadata
        let command = metadata.command.prefix { $0 != " " }
        if Self.schemaCommands.contains(command), !Self.addingCommands.contains(metadata.command[...]) {
            changedSchema = true
            foundTables.removeAll()
            try await deallocatePreparedStatements()
        } else if command == Self.deallocatingCommand {
            try await deallocatePreparedStatements()
        }
        // As SQLite's changes(): only the rows a statement inserted, updated or deleted
        // (a SELECT's command tag counts the rows it returned).
        guard Self.changingCommands.contains(command) else { return 0 }
        return metadata.rows ?? metadata.command.split(separator: " ").last.flatMap { Int($0) } ?? 0
    }

    /// Runs an `INSERT` with ` RETURNING "keyColumn"` appended and returns that column of the
    /// row inserted, or nil when it inserted nothing. PostgreSQL has no row id: without a key
    /// column the statement runs and nil is returned.
    /// - Throws: `DatabaseError.Kind.decoding` naming the column when the key is not an integer.
    public func insert(_ sql: String, _ arguments: [DatabaseValue], returningKey keyColumn: String?) async throws
        -> Int64?
    {
        guard let keyColumn else {
            try await execute(sql, arguments)
            return nil
        }
        let row = try await fetchOne(sql + " RETURNING " + (try dialect.quotedIdentifier(keyColumn)), arguments)
        return try row?.value(at: 0, as: Int64.self)
    }

    /// Runs a query and returns all its rows, converted as they arrive (see
    /// ``fetchAll(_:_:reading:)``).
    public func fetchAll(_ sql: String, _ arguments: [DatabaseValue] = []) async throws -> [Row] {
        try await fetchAll(sql, arguments, reading: Row.rowReader(columnNames:))
    }

    /// Runs a query and returns its rows as `Element`s, each converted and read on this task as
    /// it arrives, while the connection's event loop reads the next ones from the server. A
    /// row that does not convert or read fails the call once the statement has run to its end.
    public func fetchAll<Element>(
        _ sql: String, _ arguments: [DatabaseValue],
        reading makeReader: (_ columnNames: [String]) throws -> RowReader<Element>
    ) async throws -> [Element] {
        let read = try await prepared(sql, arguments) { identity, bindings in
            let statement = CachedStatement(identity: identity, bindings: bindings)
            let results = try await watch.run(on: connection) { [connection] in
                try await statement.execute(on: connection, logger: Self.quietLogger)
            }
            return try await CachedStatement.read(results, with: makeReader)
        }
        if let failure = read.failure { throw failure }
        return read.elements
    }

    /// Runs a query and returns its first row, if any.
    public func fetchOne(_ sql: String, _ arguments: [DatabaseValue] = []) async throws -> Row? {
        try await fetchAll(sql, arguments).first
    }

    /// Runs a query and calls `body` with each row as the server sends it: postgres-nio reads
    /// from the connection only as rows are consumed, so any number of rows takes constant
    /// memory. When `body` throws, the rest of the result is read and dropped (the connection
    /// must finish the statement) and the error is rethrown.
    ///
    /// `body` cannot run statements on this transaction: the connection is busy sending the
    /// rows, and such a statement throws `DatabaseError.Kind.misuse` (fetch the rows with
    /// ``fetchAll(_:_:)`` first, or read them in another transaction).
    public func forEachRow(
        _ sql: String, _ arguments: [DatabaseValue] = [], _ body: (Row) async throws -> Void
    ) async throws {
        try await running(sql, arguments) { bindings in
            let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
            isStreaming = true
            defer { isStreaming = false }
            var converter: RowConverter?
            let rows = try await watch.run(on: connection) { [connection] in
                try await connection.query(query, logger: Self.quietLogger)
            }
            for try await postgresRow in rows {
                do {
                    if converter == nil { converter = RowConverter(firstRow: postgresRow) }
                    try await body(converter!.row(postgresRow))
                } catch {
                    throw StreamStopped(error: error)
                }
            }
        }
    }

    /// The columns of the table `name` in the current schema (`current_schema()`, the first
    /// of the search path), in order, and the names of its indexes; nil when it has no such
    /// table (views and other schemas' tables are not looked at). One query: the table's row
    /// (its columns, or one NULL for a table without columns), then a row per index.
    public func tableCatalog(_ name: String) async throws -> TableCatalog? {
        let rows = try await fetchAll("""
            SELECT false AS is_index, a.attnum AS position, a.attname::text FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE c.relname = $1 AND n.nspname = current_schema() AND c.relkind IN ('r', 'p')
            UNION ALL
            SELECT true, 0, indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1
            ORDER BY 1, 2
            """, [.text(name)])
        guard let first = rows.first, try !first.value(at: 0, as: Bool.self) else { return nil }
        var columns: [String] = []
        var indexes: Set<String> = []
        for row in rows {
            guard let name = try row.value(at: 2, as: String?.self) else { continue }
            if try row.value(at: 0, as: Bool.self) { indexes.insert(name) } else { columns.append(name) }
        }
        return TableCatalog(columns: columns, indexes: indexes)
    }

    /// Whether the current schema holds the table `name` (as ``tableCatalog(_:)`` finds it): one
    /// look-up of `pg_class` by name, a fraction of the catalog query's cost.
    public func tableExists(_ name: String) async throws -> Bool {
        let row = try await fetchOne("""
            SELECT EXISTS (SELECT FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relname = $1 AND n.nspname = current_schema() AND c.relkind IN ('r', 'p'))
            """, [.text(name)])
        return try row?.value(at: 0, as: Bool.self) ?? false
    }

    /// Takes the transaction-scoped advisory lock of schema changes (`pg_advisory_xact_lock`
    /// on a key every process derives from `persistance.schema`): another transaction that
    /// asks for it waits until this one ends.
    public func serializeSchemaChanges() async throws {
        try await execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.schemaLockKey)])
    }

    /// Runs `body` in a savepoint: when it throws, what it did is undone and the transaction goes
    /// on (the error is rethrown); when it returns, its changes stay in the transaction. Savepoints nest.
    @discardableResult
    public func savepoint<T>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        let name = "persistance_savepoint_\(savepointDepth)"
        let wasAborted = isAborted
        let eventsMark = documentEvents.mark
        try await execute("SAVEPOINT \(name)")
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let value = try await body(self)
            try await execute("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            documentEvents.rollBack(to: eventsMark)
            // A cancelled or broken transaction is rolled back whole by its database.
            if !Task.isCancelled, !isConnectionLost, (try? await perform("ROLLBACK TO SAVEPOINT \(name)", [])) != nil {
                isAborted = wasAborted
            }
            throw error
        }
    }

    /// BEGIN, the block, then COMMIT, after which the block's document events go to `events`;
    /// ROLLBACK when anything fails.
    func run<T>(
        begin: String, announcingTo events: PostgresDocumentEventHub, _ body: (PostgresTransaction) async throws -> T
    ) async throws -> T {
        do {
            try await execute(begin)
        } catch let error as DatabaseError where error.kind == .connectionLost {
            // A pooled connection that died while idle (a server restart, an idle timeout):
            // nothing ran yet, so the database runs the transaction on another connection.
            try? await connection.close()
            throw StaleConnection(error: error)
        }
        do {
            let value = try await body(self)
            if isAborted {
                throw DatabaseError(
                    kind: .postgres,
                    message: "a statement of the transaction failed, so it was rolled back instead of committed",
                    sqlState: "25P02")
            }
            try await documentEvents.publish(to: events) { try await execute("COMMIT") }
            if !changedSchema { foundTables.add(tablesFound.names) }
            return value
        } catch {
            // The cancel request, if any, must land before the connection goes back to the pool.
            await canceller.settle()
            if isConnectionLost {
                // Closed before it returns to the pool, so that the pool never lends it again.
                try? await connection.close()
            } else {
                await rollback()
            }
            if canceller.wasCancelled || Task.isCancelled { throw CancellationError() }
            if let error = error as? DatabaseError, error.sqlState != nil, error.sqlState == staleStatementState {
                throw StalePreparedStatement(error: error)
            }
            throw error
        }
    }

    /// Rolls the transaction back, in a task of its own so that the cancellation of the block's
    /// task does not stop it. A connection that cannot roll back is closed: in an unknown state,
    /// it must not serve another transaction (the server rolls back what a closed connection left).
    private func rollback() async {
        let connection = connection
        let task = Task { @Sendable () async -> Bool in
            do {
                _ = try await connection.query("ROLLBACK", logger: Self.quietLogger).collect()
                return true
            } catch {
                return false
            }
        }
        if await !task.value { try? await connection.close() }
    }

    /// Runs `sql` as the unnamed statement: parsed, described, planned and executed at once.
    private func perform(_ sql: String, _ arguments: [DatabaseValue]) async throws -> PostgresQueryResult {
        try await running(sql, arguments) { bindings in
            try await watch.result(of: PostgresQuery(unsafeSQL: sql, binds: bindings), on: connection, logger: Self.quietLogger)
        }
    }

    /// Runs `sql` as a statement of the connection's cache, through `run`: prepared
    /// (Parse/Describe) the first time it runs on the connection with these parameter types,
    /// then only bound and executed. The least recently used statement is deallocated when the
    /// cache is full.
    ///
    /// A failed preparation fails the statement and the transaction as the unnamed statement
    /// would, and leaves nothing in the cache. A statement that a schema change made stale fails
    /// (SQLSTATE 0A000 when its result changed, class 42 when a parameter's type no longer
    /// fits): its entry is dropped and the database runs the transaction again.
    private func prepared<T>(
        _ sql: String, _ arguments: [DatabaseValue],
        _ run: (CachedStatement.Identity, PostgresBindings) async throws -> T
    ) async throws -> T {
        let cache = watch.statements
        let key = PreparedStatementCache.Key(sql: sql, parameterTypes: arguments.map(PostgresParameter.type(of:)))
        return try await running(sql, arguments) { bindings in
            let lease = cache.lease(key)
            for evicted in lease.evicted {
                _ = try await watch.result(
                    of: PostgresQuery(unsafeSQL: "DEALLOCATE \(evicted)"), on: connection, logger: Self.quietLogger)
            }
            do {
                return try await run(CachedStatement.Identity(name: lease.name, sql: sql), bindings)
            } catch {
                if lease.isNew {
                    // Its preparation may be what failed: postgres-nio would fail that name again.
                    cache.drop(key, named: lease.name)
                } else if let state = (error as? PSQLError)?.serverInfo?[.sqlState],
                    state == "0A000" || state.hasPrefix("42")
                {
                    cache.retire(key, named: lease.name)
                    staleStatementState = state
                }
                throw error
            }
        }
    }

    /// Deallocates every statement prepared on the connection, after a schema change that may
    /// have changed what they return.
    private func deallocatePreparedStatements() async throws {
        guard watch.statements.removeAll() > 0 else { return }
        _ = try await perform("DEALLOCATE ALL", [])
    }

    /// Runs `operation` with the arguments bound for `sql`, the running statement cancelled on
    /// the server when the task is cancelled, and its failures translated.
    private func running<T>(
        _ sql: String, _ arguments: [DatabaseValue], _ operation: (PostgresBindings) async throws -> T
    ) async throws -> T {
        guard !isStreaming else {
            throw DatabaseError(
                kind: .misuse,
                message: "a statement cannot run on a PostgreSQL transaction while forEachRow reads a result from it",
                sql: sql)
        }
        let bindings = try PostgresParameter.bind(arguments, sql: sql)
        try Task.checkCancellation()
        let canceller = canceller
        do {
            return try await withTaskCancellationHandler {
                try await operation(bindings)
            } onCancel: {
                canceller.cancel()
            }
        } catch let stopped as StreamStopped {
            // Not the server's failure: the statement ran to its end.
            throw stopped.error
        } catch {
            isAborted = true
            if canceller.wasCancelled { throw CancellationError() }
            let translated = DatabaseError.postgres(error, sql: sql, arguments: arguments, address: address)
            if (translated as? DatabaseError)?.kind == .connectionLost { isConnectionLost = true }
            if inheritsTables, (translated as? DatabaseError)?.sqlState == Self.undefinedTable {
                // A table found before may be gone: looked up again when the transaction runs again.
                foundTables.removeAll()
                staleStatementState = Self.undefinedTable
            }
            throw translated
        }
    }
}

/// What stopped the reading of a result on the client's side (a row that does not convert, the
/// caller's error), not a failure of the statement.
private struct StreamStopped: Error {
    let error: any Error
}

/// A transaction failed on a prepared statement that a schema change made stale, or on a table
/// found by an earlier transaction and dropped since: its cache entry or the tables found are
/// gone, so the transaction can run again.
struct StalePreparedStatement: Error {
    let error: DatabaseError
}

/// The connection a transaction was given was already lost when it began.
struct StaleConnection: Error {
    let error: DatabaseError
}
#endif
