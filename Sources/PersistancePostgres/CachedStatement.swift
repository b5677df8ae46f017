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

    /// How many rows of a result are read where the statement ran (on the connection's event
    /// loop, in most blocks): the rows after them are read by a task of their own on the global
    /// pool, which converts rows while the loop receives the next ones from the server.
    static let rowsReadInPlace = 16

    /// Reads every row of `results` to the end, each converted into a `Persistance.Row` and read
    /// by the reader `makeReader` makes from the first row's columns.
    static func read<Element>(
        _ results: Results, with makeReader: (_ columnNames: [String]) throws -> RowReader<Element>
    ) async throws -> Read<Element> {
        var rows = results.makeAsyncIterator()
        guard let firstRow = try await rows.next() else { return Read() }
        var reading: ResultReading<Element>
        do {
            var converter = RowConverter(firstRow: firstRow)
            let reader = try makeReader(converter.columnNames)
            converter.keepSeconds(at: reader.dateColumns)
            reading = try ResultReading(rows: rows, first: firstRow, converter: converter, reader: reader)
        } catch {
            while try await rows.next() != nil {}
            return Read(failure: error)
        }
        for _ in 1..<rowsReadInPlace {
            guard try await reading.readNext() else { return reading.read }
        }
        let handoff = Handoff(reading)
        try await Task.detached(priority: Task.currentPriority) { try await handoff.value.readToEnd() }.value
        return handoff.value.read
    }

    /// A result being read: its rows still to come, and what the rows read so far gave.
    struct ResultReading<Element> {
        private var rows: Results.AsyncIterator
        /// Each row is converted, read and dropped before the next.
        private var converter: RowConverter
        private let reader: RowReader<Element>
        private(set) var read = Read<Element>()

        /// Starts with `first`, already received.
        init(rows: Results.AsyncIterator, first: PostgresRow, converter: RowConverter, reader: RowReader<Element>) throws {
            self.rows = rows
            self.converter = converter
            self.reader = reader
            read.elements.append(try reader.read(self.converter.row(first)))
        }

        /// Reads the next row; false at the end of the result. After a row that failed, the
        /// rest are received and dropped.
        mutating func readNext() async throws -> Bool {
            guard let postgresRow = try await rows.next(isolation: #isolation) else { return false }
            guard read.failure == nil else { return true }
            do {
                read.elements.append(try reader.read(converter.row(postgresRow)))
            } catch {
                read.failure = error
            }
            return true
        }

        mutating func readToEnd() async throws {
            while try await readNext() {}
        }
    }
}

/// A value one task hands to a task it then awaits, and takes back once that task ends: the
/// two never use it at the same time.
private final class Handoff<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
#endif
