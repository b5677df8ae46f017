/// Reads records of one type from the rows of one statement.
///
/// `Record.rowDecoder(for:)` makes one per statement, resolving the columns it reads once;
/// `decode(_:)` then reads each row. Its concrete type is part of the record type, so a
/// fetch loop calls it directly, with no closure or dynamic dispatch per row.
public protocol RecordDecoder<Element> {
    /// The record type read.
    associatedtype Element

    /// Reads a record from the current row of `statement`.
    func decode(_ statement: Statement) throws -> Element
}
