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
/// value that ``execute(on:logger:)`` sets around the call.
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

    /// The statement's rows, as postgres-nio streams them (`Row` is postgres-nio's row type here,
    /// so Persistance's is named in full below).
    typealias Results = AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>

    /// Sends the statement on `connection` (prepared first if the connection has not prepared
    /// its name) and returns its rows as they arrive.
    func execute(on connection: PostgresConnection, logger: Logger) async throws -> Results {
        try await Self.$current.withValue(identity) { try await connection.execute(self, logger: logger) }
    }

    /// What a statement returned, each row read as it arrived.
    struct Read<Element> {
        /// The rows read, in order; incomplete when a row did not read.
        var elements: [Element] = []
        /// The error of the first row that did not convert or read: the reader's failure, not
        /// the statement's, which ran to its end (the rows after it are read and dropped).
        var failure: (any Error)?
    }

    /// Reads every row of `results` to the end, each converted into a `Persistance.Row` and read
    /// by the reader `makeReader` makes from the first row's columns.
    static func read<Element>(
        _ results: Results, with makeReader: (_ columnNames: [String]) throws -> RowReader<Element>
    ) async throws -> Read<Element> {
        var read = Read<Element>()
        var rows = results.makeAsyncIterator()
        guard let firstRow = try await rows.next() else { return read }
        let first: Persistance.Row
        let reader: RowReader<Element>
        do {
            first = try Persistance.Row(firstRow, sameColumnsAs: nil)
            reader = try makeReader(first.columnNames)
            read.elements.append(try reader.read(first))
        } catch {
            read.failure = error
            while try await rows.next() != nil {}
            return read
        }
        // Each row is read and dropped before the next: its values' storage is used again.
        var values = [DatabaseValue]()
        while let postgresRow = try await rows.next() {
            guard read.failure == nil else { continue }
            do {
                try values.replace(withCellsOf: postgresRow)
                read.elements.append(try reader.read(first.withValues(values)))
            } catch {
                read.failure = error
            }
        }
        return read
    }
}
#endif
