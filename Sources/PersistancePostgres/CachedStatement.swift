#if PostgreSQL
import Persistance
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

    /// What a statement returned, its rows converted into `Row`s as they arrived (`Row` is
    /// postgres-nio's row type here, so Persistance's is named in full).
    struct Rows: Sendable {
        /// The rows, in order; incomplete when a row did not convert.
        var rows: [Persistance.Row] = []
        /// The error of the first row that did not convert (`Row.init(_:sameColumnsAs:)`): the
        /// reader's failure, not the statement's, which ran to its end.
        var conversionFailure: (any Error)?
    }

    /// Every row of the statement, read to the end, each converted as it arrives (the rows
    /// after one that does not convert are read and dropped).
    func rows(on connection: PostgresConnection, logger: Logger) async throws -> Rows {
        try await Self.$current.withValue(identity) {
            var result = Rows()
            var first: Persistance.Row?
            for try await postgresRow in try await connection.execute(self, logger: logger) {
                guard result.conversionFailure == nil else { continue }
                do {
                    let row = try Persistance.Row(postgresRow, sameColumnsAs: first)
                    if first == nil { first = row }
                    result.rows.append(row)
                } catch {
                    result.conversionFailure = error
                }
            }
            return result
        }
    }
}
#endif
