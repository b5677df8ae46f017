/// One row changed by a committed transaction: its table, what happened to it and its row id.
public struct RowChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to a row.
    public enum Kind: String, Sendable, Hashable {
        case insert, update, delete
    }

    /// The table's name, as SQLite spells it in the schema.
    public var table: String
    /// Whether the row was inserted, updated or deleted.
    public var kind: Kind
    /// The row's `rowid`.
    public var rowID: Int64

    /// A change of the row `rowID` of `table`.
    public init(table: String, kind: Kind, rowID: Int64) {
        self.table = table
        self.kind = kind
        self.rowID = rowID
    }

    public var description: String { "\(kind) \(table) #\(rowID)" }
}
