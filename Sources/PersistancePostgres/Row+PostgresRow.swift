#if PostgreSQL
import Persistance
import PostgresNIO

extension Row {
    /// The row of a PostgreSQL result, its cells converted as `DatabaseValue(_:)` does;
    /// with `previous`, a row of the same result, sharing its column names.
    init(_ row: PostgresRow, sameColumnsAs previous: Row?) throws {
        var values = [DatabaseValue]()
        values.reserveCapacity(row.count)
        var names = [String]()
        for cell in row {
            values.append(try DatabaseValue(cell))
            if previous == nil { names.append(cell.columnName) }
        }
        self = previous?.withValues(values) ?? Row(columnNames: names, values: values)
    }
}
#endif
