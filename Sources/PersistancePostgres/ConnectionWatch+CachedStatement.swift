#if PostgreSQL
import PostgresNIO

extension ConnectionWatch {
    /// Every row of `statement` on `connection`, or `connectionLost` when the connection
    /// closes first.
    func rows(of statement: CachedStatement, on connection: PostgresConnection, logger: Logger) async throws
        -> [PostgresRow]
    {
        try await race { outcome in
            Self.start {
                do {
                    outcome.resume(.success(try await statement.rows(on: connection, logger: logger)))
                } catch {
                    outcome.resume(.failure(error))
                }
            }
        }
    }

    /// Runs `operation` in a task of its own, started on the caller's thread where the system
    /// can (`Task.immediate`): the statement is sent without first waiting for another thread.
    private static func start(_ operation: @escaping @Sendable () async -> Void) {
        if #available(macOS 26, iOS 26, *) {
            Task.immediate { await operation() }
        } else {
            Task { await operation() }
        }
    }
}
#endif
