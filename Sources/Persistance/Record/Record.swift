/// A value stored as a row of a table. (Contract stub: the records issue fills this in.)
public protocol Record {
    /// A function that reads one record from the current row of `statement`.
    /// Column positions are resolved here, once per statement, not once per row.
    static func rowDecoder(for statement: Statement) throws -> (Statement) throws -> Self
}

extension Row: Record {
    public static func rowDecoder(for statement: Statement) throws -> (Statement) throws -> Row {
        Row.init(statement:)
    }
}
