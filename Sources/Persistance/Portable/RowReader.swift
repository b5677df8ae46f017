/// What reads records of one type from the ``Row``s of one result, as the portable API's
/// statements return them on any engine: the record's column positions are found once, in
/// the result's column names, not once per row.
///
/// ``Record/rowReader(columnNames:)`` makes one: `Decodable` records decode each row,
/// `@Table` records read their columns by position, and a ``Row`` is read as it is.
public struct RowReader<Element> {
    private let readRow: (Row) throws -> Element

    /// The positions of the columns the reader reads only as `Date`s, from seconds since 1970
    /// (`.real`) as well as from SQLite's date text. An engine whose column holds a timestamp
    /// (PostgreSQL's TIMESTAMPTZ) may hand these as seconds, the same date to the millisecond
    /// as its text, and spare writing the text and parsing it again.
    public let dateColumns: [Int]

    /// A reader that makes each record with `read`; `dateColumns` as described above.
    public init(dateColumns: [Int] = [], _ read: @escaping (Row) throws -> Element) {
        self.dateColumns = dateColumns
        readRow = read
    }

    /// The record in `row`.
    public func read(_ row: Row) throws -> Element {
        try readRow(row)
    }
}

extension Record {
    /// Throws: a record that is neither `Decodable` nor declared with `@Table` cannot be read
    /// from rows unless it implements this.
    public static func rowReader(columnNames: [String]) throws -> RowReader<Self> {
        throw DatabaseError(
            kind: .decoding,
            message: "\(Self.self) is neither Decodable nor a @Table record, nor implements rowReader(columnNames:), "
                + "so it cannot be read from the rows of a portable statement")
    }
}

extension Record where Self: Decodable {
    /// Decodes each row with the library's row decoder.
    public static func rowReader(columnNames: [String]) throws -> RowReader<Self> {
        RowReader { try Self(row: $0) }
    }
}

extension TableRecord {
    /// Finds each of `databaseColumns` in `columnNames` once (a missing one is an error
    /// naming it), then reads each record's columns by position.
    public static func rowReader(columnNames: [String]) throws -> RowReader<Self> {
        try tableRowReader(columnNames: columnNames)
    }

    /// The reader of both `rowReader(columnNames:)`s: columns by position, and the table's
    /// `Date` columns (when `databaseColumns` are the table's, as `@Table` declares them) as
    /// its `dateColumns`.
    static func tableRowReader(columnNames: [String]) throws -> RowReader<Self> {
        let columns = try databaseColumnPositions(in: columnNames)
        let schema = table.schema
        let dateColumns = schema.dateSlots.isEmpty || databaseColumns != schema.columnNames
            ? [] : schema.dateSlots.map { columns[$0] }
        return RowReader(dateColumns: dateColumns) { try Self(row: $0, columns: columns) }
    }

    /// The position in `columnNames` of each of `databaseColumns`.
    static func databaseColumnPositions(in columnNames: [String]) throws -> [Int] {
        // Rows selected by the table's own statements have its columns, in order.
        if columnNames == databaseColumns { return Array(columnNames.indices) }
        let names = RowColumns(names: columnNames)
        return try databaseColumns.map { name in
            guard let index = names.index(of: name) else {
                throw DatabaseError(
                    kind: .columnNotFound, message: "\(Self.self) reads a column the rows do not have", column: name)
            }
            return index
        }
    }
}

extension TableRecord where Self: Decodable {
    /// A `@Table` record that is also `Decodable` reads its columns by position.
    public static func rowReader(columnNames: [String]) throws -> RowReader<Self> {
        try tableRowReader(columnNames: columnNames)
    }
}

extension Row {
    /// Reads each row as it is.
    public static func rowReader(columnNames: [String]) throws -> RowReader<Row> {
        RowReader { $0 }
    }
}
