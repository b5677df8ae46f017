#if PostgreSQL
import Persistance
import PostgresNIO

/// Converts the rows of one PostgreSQL result into `Row`s, as `DatabaseValue(_:of:)` converts
/// their cells: the columns are found in the first row and shared by the rest, and each
/// TIMESTAMPTZ or TIMESTAMP is shown as SQLite's date text, but in the columns a record reads
/// as `Date`s (a `RowReader`'s `dateColumns`), where it stays seconds since 1970: the same
/// date, without the text written and parsed again.
struct RowConverter {
    /// The result's column names, in order.
    let columnNames: [String]
    /// The positions of the timestamps shown as text.
    private var textTimestamps: [Int]
    /// The first row converted, whose columns the others share.
    private var first: Row?
    /// The values of the row being converted: when the previous row has been dropped, its
    /// storage is used again.
    private var values = [DatabaseValue]()

    /// The converter of the result whose first row is `row`.
    init(firstRow row: PostgresRow) {
        var names = [String]()
        var timestamps = [Int]()
        for (position, cell) in row.enumerated() {
            names.append(cell.columnName)
            if cell.dataType == .timestamptz || cell.dataType == .timestamp { timestamps.append(position) }
        }
        columnNames = names
        textTimestamps = timestamps
    }

    /// Leaves the timestamps at `positions` as seconds since 1970, for a reader that reads
    /// them only as `Date`s.
    mutating func keepSeconds(at positions: [Int]) {
        textTimestamps.removeAll(where: positions.contains)
    }

    /// The next row of the result.
    /// - Throws: `DatabaseError.Kind.decoding` naming the column of a cell that does not convert.
    mutating func row(_ row: PostgresRow) throws -> Row {
        try values.replace(withCellsOf: row, textTimestamps: textTimestamps)
        if let first { return first.withValues(values) }
        let row = Row(columnNames: columnNames, values: values)
        first = row
        return row
    }
}
#endif
