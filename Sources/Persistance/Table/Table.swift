/// A table of records. (Contract stub: the records/tables issue fills this in.)
public struct Table<Element: Record>: Sendable {
    /// The table's name, unquoted.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }
}
