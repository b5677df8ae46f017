#if PostgreSQL
import Logging
import Persistance
import PostgresNIO

/// A transaction in progress on one connection: what a ``PostgresDatabase`` block receives.
///
/// Statements take their arguments as `$1`, `$2`, …, always bound, never spliced into the SQL.
/// A statement that fails aborts the whole transaction on PostgreSQL; run statements whose
/// failure the block means to survive in a ``savepoint(_:)``. A block that catches such
/// a failure and returns anyway is rolled back, and its call throws SQLSTATE 25P02.
///
/// Errors a statement throws: `DatabaseError.Kind.postgres` with the server's `sqlState`
/// (and a portable `condition`); `.statementTimeout`; `.connectionLost` (the server rolls the
/// transaction back); `.encoding` for an argument PostgreSQL cannot hold; `CancellationError`
/// when the task is cancelled, which cancels the running statement on the server.
public final class PostgresTransaction {
    private let connection: PostgresConnection
    private let watch: ConnectionWatch
    private let canceller: StatementCanceller
    private let address: String
    private var savepointDepth = 0
    /// A statement failed and no savepoint undid it: the server rejects everything until ROLLBACK.
    private var isAborted = false
    private var isConnectionLost = false

    private static let quietLogger = Logger(label: "persistance.postgres.quiet") { _ in SwiftLogNoOpLogHandler() }

    init(connection: PostgresConnection, watch: ConnectionWatch, canceller: StatementCanceller, address: String) {
        self.connection = connection
        self.watch = watch
        self.canceller = canceller
        self.address = address
    }

    /// Runs a statement, discarding any rows it returns.
    public func execute(_ sql: String, _ arguments: [(any PostgresValueConvertible)?] = []) async throws {
        _ = try await perform(sql, arguments)
    }

    /// Runs a query and returns all its rows.
    public func fetchAll(_ sql: String, _ arguments: [(any PostgresValueConvertible)?] = []) async throws -> [PostgresRow] {
        try await perform(sql, arguments)
    }

    /// Runs a query and returns its first row, if any.
    public func fetchOne(_ sql: String, _ arguments: [(any PostgresValueConvertible)?] = []) async throws -> PostgresRow? {
        try await perform(sql, arguments).first
    }

    /// Runs `body` in a savepoint: when it throws, what it did is undone and the transaction goes
    /// on (the error is rethrown); when it returns, its changes stay in the transaction. Savepoints nest.
    public func savepoint<T>(_ body: (PostgresTransaction) async throws -> T) async throws -> T {
        let name = "persistance_savepoint_\(savepointDepth)"
        let wasAborted = isAborted
        try await execute("SAVEPOINT \(name)")
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let value = try await body(self)
            try await execute("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            // A cancelled or broken transaction is rolled back whole by its database.
            if !Task.isCancelled, !isConnectionLost, (try? await perform("ROLLBACK TO SAVEPOINT \(name)", [])) != nil {
                isAborted = wasAborted
            }
            throw error
        }
    }

    /// BEGIN, the block, then COMMIT; ROLLBACK when anything fails.
    func run<T>(begin: String, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
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
            try await execute("COMMIT")
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

    private func perform(_ sql: String, _ arguments: [(any PostgresValueConvertible)?]) async throws -> [PostgresRow] {
        var bindings = PostgresBindings(capacity: arguments.count)
        for (index, argument) in arguments.enumerated() {
            do {
                if let argument { try argument.bind(into: &bindings) } else { bindings.appendNull() }
            } catch var error as DatabaseError {
                error.column = "$\(index + 1)"
                error.sql = sql
                throw error
            }
        }
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        try Task.checkCancellation()
        let connection = connection
        let watch = watch
        let canceller = canceller
        do {
            return try await withTaskCancellationHandler {
                try await watch.rows(of: query, on: connection, logger: Self.quietLogger)
            } onCancel: {
                canceller.cancel()
            }
        } catch {
            isAborted = true
            if canceller.wasCancelled { throw CancellationError() }
            let translated = DatabaseError.postgres(error, sql: sql, address: address)
            if (translated as? DatabaseError)?.kind == .connectionLost { isConnectionLost = true }
            throw translated
        }
    }
}
/// The connection a transaction was given was already lost when it began.
struct StaleConnection: Error {
    let error: DatabaseError
}
#endif
