/// One element of the rows `selectRecords` returns: a typed column or expression (one result
/// column, one value), or the columns of a table of the query (every column of its record,
/// read as one record; an optional record for a left-joined table).
///
/// ```swift
/// let rows: [(Player, String)] = try Player.table.query()
///     .join(Team.self) { player, team in player.teamID == team.id }
///     .selectRecords { player, team in (player, team.name) }
///     .fetchAll(conn)
/// ```
public protocol RowSelectable: Sendable {
    /// The Swift type of the element's value in each row.
    associatedtype Value

    /// What reads the element's value from a row of the query.
    associatedtype Reader: RowValueReader where Reader.Value == Value

    /// The result columns the element occupies, in order.
    var resultColumns: [SQLSelection] { get }

    /// The reader of the element's value when its result columns start at column `index`;
    /// moves `index` past them.
    static func reader(startingAt index: inout Int) -> Reader
}

/// Reads one element's value from the current row of a statement: made once per fetch by
/// ``RowSelectable/reader(startingAt:)``, used for every row.
public protocol RowValueReader {
    /// The Swift type of the value read.
    associatedtype Value

    /// The value in the current row of `statement`.
    func read(from statement: Statement) throws -> Value
}

/// Reads the value of one result column with the type's
/// ``DatabaseValueConvertible/read(from:at:)`` (straight from SQLite when its storage class is
/// the type's own, else converted, with a decoding error when it does not fit).
public struct ColumnValueReader<Value: DatabaseValueConvertible>: RowValueReader {
    @usableFromInline let index: Int

    @inlinable
    init(index: Int) {
        self.index = index
    }

    @inlinable
    public func read(from statement: Statement) throws -> Value {
        try Value.read(from: statement, at: index)
    }
}

extension TypedColumn: RowSelectable where Value: DatabaseValueConvertible {}

extension TypedSelectable {
    /// The one result column of the typed column or expression.
    public var resultColumns: [SQLSelection] { [sqlSelection] }

    /// Reads the value of result column `index`.
    @inlinable
    public static func reader(startingAt index: inout Int) -> ColumnValueReader<Value> {
        defer { index += 1 }
        return ColumnValueReader(index: index)
    }
}

/// Reads a record from the result columns of its table, in the order of `Record.databaseColumns`.
public struct RecordReader<Record: TableRecord>: RowValueReader {
    /// The result column of each of `Record.databaseColumns`.
    @usableFromInline let positions: [Int]

    @inlinable
    init(startingAt index: inout Int) {
        let count = Record.databaseColumns.count
        positions = Array(index..<index + count)
        index += count
    }

    @inlinable
    public func read(from statement: Statement) throws -> Record {
        try Record(statement: statement, columns: positions)
    }
}

/// Reads a left-joined table's record: nil when every one of its result columns is NULL (the
/// row has no match in that table).
public struct OptionalRecordReader<Record: TableRecord>: RowValueReader {
    @usableFromInline let record: RecordReader<Record>

    @inlinable
    init(startingAt index: inout Int) {
        record = RecordReader(startingAt: &index)
    }

    @inlinable
    public func read(from statement: Statement) throws -> Record? {
        if record.positions.allSatisfy(statement.isNull(at:)) { return nil }
        return try record.read(from: statement)
    }
}

extension TableSource {
    /// Every column of the record's table, qualified, in the order of `Record.databaseColumns`.
    public var resultColumns: [SQLSelection] {
        Record.databaseColumns.map { name in
            SQLSelection(expression: SQLExpression([.qualifiedColumn(table: qualifier, name: name)], precedence: .atomic), alias: nil)
        }
    }
}

extension TableColumns: RowSelectable {
    /// A row holds the table's record.
    public typealias Value = Record

    /// Reads the table's record.
    @inlinable
    public static func reader(startingAt index: inout Int) -> RecordReader<Record> {
        RecordReader(startingAt: &index)
    }
}

extension NullableTableColumns: RowSelectable {
    /// A row holds the left-joined table's record, or nil without a match.
    public typealias Value = Record?

    /// Reads the left-joined table's record, or nil when the row has no match in it.
    @inlinable
    public static func reader(startingAt index: inout Int) -> OptionalRecordReader<Record> {
        OptionalRecordReader(startingAt: &index)
    }
}
