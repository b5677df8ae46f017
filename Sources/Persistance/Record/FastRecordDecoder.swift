/// The record decoder of `FastDecodableRecord`s: the positions of the record's
/// `databaseColumns`, found once per statement, passed to its initializer for each row.
public struct FastRecordDecoder<Element: FastDecodableRecord>: RecordDecoder {
    @usableFromInline let columns: [Int]

    /// Finds each of `Element.databaseColumns` in `statement` (once per statement and record
    /// type); a missing one is an error naming it.
    @inlinable
    init(statement: Statement) throws {
        columns = try statement.columnPositions(for: Element.self) {
            try Element.databaseColumns.map { name in
                guard let index = statement.columnIndex(named: name) else {
                    throw DatabaseError(
                        kind: .columnNotFound, message: "\(Element.self) reads a column the statement does not return",
                        sql: statement.sql, column: name)
                }
                return index
            }
        }
    }

    /// Inlined into the fetch loops along with the record's initializer when that is inlined
    /// (the `@Table` macro's is), so each record is built where it is stored.
    @inlinable @inline(__always)
    public func decode(_ statement: Statement) throws -> Element {
        try Element(statement: statement, columns: columns)
    }
}
