/// The columns of one table of a query, as the query's closures receive them: typed, and
/// qualified with the table's name or alias. ``TableColumns`` for the query's own table and
/// inner joins, ``NullableTableColumns`` for a left join.
public protocol TableSource: Sendable {
    /// The record of the table.
    associatedtype Record: TableRecord

    /// The columns of `Record`'s table, qualified with `qualifier` (its name or alias).
    init(qualifier: String)

    /// The table's name or alias, that qualifies its columns in the query.
    var qualifier: String { get }
}

/// The typed columns of a table in a query, each qualified with the table's name or alias:
/// `player.score` is `"player"."score"`. Every column of `Record.columns` is here by name.
@dynamicMemberLookup
public struct TableColumns<Record: TableRecord>: TableSource {
    /// The table's name or alias, that qualifies its columns in the query.
    public let qualifier: String

    /// The columns of `Record`'s table, qualified with `qualifier` (its name or alias).
    public init(qualifier: String) {
        self.qualifier = qualifier
    }

    /// The column `column` of `Record.columns`, qualified.
    public subscript<Value>(dynamicMember column: KeyPath<Record.Columns, TypedColumn<Record, Value>>)
        -> TypedColumn<Record, Value>
    {
        Record.columns[keyPath: column].qualified(by: qualifier)
    }
}

/// The typed columns of a left-joined table: every column's value is optional, since a row
/// of the query may have no matching row in this table (its columns are then NULL).
@dynamicMemberLookup
public struct NullableTableColumns<Record: TableRecord>: TableSource {
    /// The table's name or alias, that qualifies its columns in the query.
    public let qualifier: String

    /// The columns of `Record`'s table, qualified with `qualifier` (its name or alias).
    public init(qualifier: String) {
        self.qualifier = qualifier
    }

    /// The optional column `column` of `Record.columns`, qualified; it stays `Value?`.
    public subscript<Value>(dynamicMember column: KeyPath<Record.Columns, TypedColumn<Record, Value?>>)
        -> TypedColumn<Record, Value?>
    {
        Record.columns[keyPath: column].qualified(by: qualifier)
    }

    /// The column `column` of `Record.columns`, qualified, with optional values.
    public subscript<Value>(dynamicMember column: KeyPath<Record.Columns, TypedColumn<Record, Value>>)
        -> TypedColumn<Record, Value?>
    {
        let column = Record.columns[keyPath: column]
        let encode = column.encode
        return TypedColumn(column.name, qualifier: qualifier) { value in
            guard let value else { return .null }
            return try encode(value)
        }
    }
}
