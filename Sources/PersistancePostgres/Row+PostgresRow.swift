#if PostgreSQL
import Persistance
import PostgresNIO

extension Row {
    /// The row of a PostgreSQL result, its cells converted as `DatabaseValue(_:of:)` does;
    /// with `previous`, a row of the same result, sharing its column names.
    /// - Throws: `DatabaseError.Kind.decoding` naming the column of a cell that does not convert.
    init(_ row: PostgresRow, sameColumnsAs previous: Row?) throws {
        var values = [DatabaseValue]()
        try values.replace(withCellsOf: row)
        self = previous?.withValues(values) ?? Row(columnNames: row.map(\.columnName), values: values)
    }
}

extension [DatabaseValue] {
    /// Replaces the values with those of `row`'s cells, keeping the array's storage when it is
    /// the only reference to it: the rows of one result, read one after another, take one
    /// allocation between them.
    /// - Throws: `DatabaseError.Kind.decoding` naming the column of a cell that does not convert.
    mutating func replace(withCellsOf row: PostgresRow) throws {
        removeAll(keepingCapacity: true)
        reserveCapacity(row.count)
        do {
            // Each cell's bytes taken, not copied: the buffer is not retained once more per cell.
            for var cell in row { append(try DatabaseValue(cell.bytes.take(), of: cell.dataType)) }
        } catch var error as DatabaseError {
            error.column = row.dropFirst(count).first?.columnName
            throw error
        }
    }
}
#endif
