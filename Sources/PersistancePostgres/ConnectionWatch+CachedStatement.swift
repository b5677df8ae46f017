#if PostgreSQL
import PostgresNIO

extension ConnectionWatch {
    /// Every row of `statement` on `connection`, or `connectionLost` when the connection
    /// closes first.
    func rows(of statement: CachedStatement, on connection: PostgresConnection, logger: Logger) async throws
        -> CachedStatement.Rows
    {
        try await race { outcome in
            // On the connection's event loop: the statement is sent, and its rows read and
            // converted, where postgres-nio delivers them (while the server sends the next
            // ones); this caller is resumed once, with all of them.
            Task(executorPreference: executor) {
                do {
                    outcome.resume(.success(try await statement.rows(on: connection, logger: logger)))
                } catch {
                    outcome.resume(.failure(error))
                }
            }
        }
    }
}
#endif
