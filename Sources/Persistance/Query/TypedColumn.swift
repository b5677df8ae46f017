/// A column of a record's table that knows the Swift type of its values, so that a query
/// comparing it with a value of another type does not compile.
///
/// A record declared with `@Table` gets one per stored property under `Record.columns`:
/// ```swift
/// Player.table.query()
///     .filter(Player.columns.score > 5 && Player.columns.name.like("A%"))
///     .order(Player.columns.score.desc)
/// // Player.columns.name > 5    — does not compile: `name` holds a String
/// ```
/// Values are converted the way the record stores them (a `Date` by the record's date
/// strategy, an enum by its raw value, a custom `ColumnCoder`'s conversion) and always bound.
/// `sqlExpression` is the untyped escape hatch, like `Column("name")`.
///
/// In a query that joins tables, the columns its closures receive (``TableColumns``) are
/// qualified with their table's name or alias (`"player"."score"`).
public struct TypedColumn<Root, Value>: SQLSelectable, SQLOrderable, Sendable {
    /// The column's name, unquoted.
    public let name: String
    /// The table name or alias the column is qualified with, or nil for a bare reference.
    public let qualifier: String?
    /// Converts a Swift value of the column to the value stored.
    @usableFromInline let encode: @Sendable (Value) throws -> DatabaseValue

    /// A column called `name` whose values are stored as `encode` converts them.
    public init(_ name: String, encode: @escaping @Sendable (Value) throws -> DatabaseValue) {
        self.init(name, qualifier: nil, encode: encode)
    }

    init(_ name: String, qualifier: String?, encode: @escaping @Sendable (Value) throws -> DatabaseValue) {
        self.name = name
        self.qualifier = qualifier
        self.encode = encode
    }

    /// The same column qualified with `table`, a table's name or alias: `"table"."name"`.
    public func qualified(by table: String) -> TypedColumn {
        TypedColumn(name, qualifier: table, encode: encode)
    }

    /// The column as an untyped expression, for operators and functions the typed column lacks.
    public var sqlExpression: SQLExpression {
        SQLExpression([columnPiece], precedence: .atomic)
    }

    /// The reference to the column: qualified when the column has a qualifier.
    ///
    /// This and `valuePiece(_:)` are always inlined into the generic operators, which then call
    /// only `SQLPiece`'s functions: a call to a method of `TypedColumn` itself from unspecialized
    /// generic code looks up the metadata of `TypedColumn<Root, Value>` (about 470 instructions
    /// per comparison built).
    @inline(__always)
    var columnPiece: SQLPiece { .column(name, qualifiedBy: qualifier) }

    /// The bound value for `value`, or the error converting it, thrown when the query renders.
    func valueExpression(_ value: Value) -> SQLExpression {
        SQLExpression([valuePiece(value)], precedence: .atomic)
    }

    /// The piece of the bound value for `value`, or of the error converting it.
    @inline(__always)
    func valuePiece(_ value: Value) -> SQLPiece { .bound(value, encodedBy: encode, column: name) }

    /// Ascending order of this column.
    public var asc: SQLOrdering { sqlExpression.asc }

    /// Descending order of this column.
    public var desc: SQLOrdering { sqlExpression.desc }

    public var sqlOrdering: SQLOrdering { asc }

    public var sqlSelection: SQLSelection { sqlExpression.sqlSelection }

    /// This column as a result column named `alias`.
    public func aliased(_ alias: String) -> SQLSelection {
        sqlExpression.aliased(alias)
    }
}

extension TypedColumn where Value: DatabaseValueConvertible {
    /// A column called `name` whose values are stored with their own database conversion.
    public init(_ name: String) {
        self.init(name) { try $0.databaseValue }
    }
}
