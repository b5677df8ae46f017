#if PostgreSQL
import PostgresNIO

/// A statement of a `PreparedStatementCache` run through postgres-nio's named prepared
/// statements (`PostgresConnection.execute(_:logger:)`): the connection prepares the name the
/// first time it runs it (Parse/Describe, its parameter types those of the bindings), then only
/// binds and executes it, its rows in binary format.
///
/// postgres-nio reads a prepared statement's name and SQL from its type (`static` requirements,
/// meant for SQL known when the app is compiled), and reads them before `execute` first
/// suspends; a library's SQL is made at run time, so they come from ``current``, a task-local
/// value that ``rows(on:logger:)`` sets around the call.
struct CachedStatement: PostgresPreparedStatement {
    /// The statement's name and SQL.
    struct Identity: Sendable {
        let name: String
        let sql: String
    }

    /// The statement being executed.
    @TaskLocal static var current = Identity(name: "", sql: "")

    static var name: String { current.name }
    static var sql: String { current.sql }

    typealias Row = PostgresRow

    let identity: Identity
    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

    /// Every row of the statement, read to the end.
    func rows(on connection: PostgresConnection, logger: Logger) async throws -> [PostgresRow] {
        try await Self.$current.withValue(identity) {
            var rows = [PostgresRow]()
            for try await row in try await connection.execute(self, logger: logger) {
                rows.append(row)
            }
            return rows
        }
    }
}
#endif
