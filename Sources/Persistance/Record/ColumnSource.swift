/// Where the row decoder reads values: the current row of a statement, or a `Row`.
///
/// An enum rather than a generic parameter, so that the decoder's code is not generic
/// over its source (unspecialized generic code pays a metadata look-up per call).
@usableFromInline
enum ColumnSource {
    /// The current row of a statement, read column by column without building a `Row`.
    case statement(Statement)
    /// The values of a row.
    case row(Row)

    /// The source's column names and their case-insensitive lookup.
    var columns: RowColumns {
        switch self {
        case .statement(let statement): statement.columns
        case .row(let row): RowColumns(names: row.columnNames)
        }
    }

    /// The value of the column at `index` in the current row.
    @inline(__always)
    func value(at index: Int) -> DatabaseValue {
        switch self {
        case .statement(let statement): statement.column(at: index)
        case .row(let row): row[index]
        }
    }
}
