/// A `Row` is a record: it reads every column of a result row, writes each of its own
/// columns, and gains the new row id under the primary key column when inserted.
extension Row: Record {
    /// Reads every column of each row.
    public static func rowDecoder(for statement: Statement) throws -> RecordDecodingFunction<Row> {
        RecordDecodingFunction(Row.init(statement:))
    }

    /// Writes each column of the row, in order.
    public func encode(into container: inout RecordValues) throws {
        for (column, value) in zip(columnNames, values) {
            try container.set(value, forColumn: column)
        }
    }

    /// Sets the primary key column to the new row id, appending it if the row lacks it.
    public mutating func didInsert(rowID: Int64, column: String) {
        self[column] = .integer(rowID)
    }
}
