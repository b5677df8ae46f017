/// A `Row` is a record: it reads every column of a result row, writes each of its own
/// columns, and gains the new row id under the primary key column when inserted.
extension Row: Record {
    public static func rowDecoder(for statement: Statement) throws -> (Statement) throws -> Row {
        Row.init(statement:)
    }

    public func encode(into container: inout RecordValues) throws {
        for (column, value) in zip(columnNames, values) {
            try container.set(value, forColumn: column)
        }
    }

    public mutating func didInsert(rowID: Int64, column: String) {
        self[column] = .integer(rowID)
    }
}
