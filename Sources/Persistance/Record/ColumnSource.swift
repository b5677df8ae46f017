/// Where the row decoder reads values: the current row of a statement, or a `Row`.
protocol ColumnSource {
    /// The source's column names and their case-insensitive lookup.
    var columns: RowColumns { get }
    /// The value of the column at `index` in the current row.
    func value(at index: Int) -> DatabaseValue
}

/// The current row of a statement, read column by column without building a `Row`.
struct StatementColumnSource: ColumnSource {
    let statement: Statement

    var columns: RowColumns { statement.columns }

    @inline(__always)
    func value(at index: Int) -> DatabaseValue {
        statement.column(at: index)
    }
}

/// The values of a `Row`.
struct RowColumnSource: ColumnSource {
    let row: Row
    let columns: RowColumns

    init(row: Row) {
        self.row = row
        columns = RowColumns(names: row.columnNames)
    }

    func value(at index: Int) -> DatabaseValue {
        row[index]
    }
}
