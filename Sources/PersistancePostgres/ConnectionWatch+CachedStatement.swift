#if PostgreSQL
import PostgresNIO

extension ConnectionWatch {
    /// Where a statement's task runs.
    enum StatementExecutor {
        /// The connection's event loop: the statement is sent from it and its rows are converted
        /// where postgres-nio delivers them, then the caller is resumed once. Best for a row or
        /// two: no hop between the loop and another thread per batch of rows.
        case connectionLoop
        /// The global executor: rows are converted on another thread while the loop reads the
        /// next ones from the server. Best for long results.
        case global
    }

    /// Every row of `statement` on `connection`, read and converted on `executor`, or
    /// `connectionLost` when the connection closes first.
    func rows(
        of statement: CachedStatement, on connection: PostgresConnection, executor: StatementExecutor, logger: Logger
    ) async throws -> CachedStatement.Rows {
        try await race { outcome in
            let run: @concurrent @Sendable () async -> Void = {
                do {
                    outcome.resume(.success(try await statement.rows(on: connection, logger: logger)))
                } catch {
                    outcome.resume(.failure(error))
                }
            }
            switch executor {
            case .connectionLoop: Task(executorPreference: self.executor, operation: run)
            // Not `Task(executorPreference: nil)`: a task created that way checks for a preference,
            // under a lock, every time it changes executor (each batch of rows).
            case .global: Task(operation: run)
            }
        }
    }
}
#endif
