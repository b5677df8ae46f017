/// One result row: ordered column names and their values, like a dictionary that keeps its order.
///
/// Columns are found by index or by name (ASCII case-insensitive, like SQLite). Typed
/// access throws on a type mismatch, an unexpected NULL or a missing column.
/// ```swift
/// let row = try conn.fetchOne("SELECT id, name FROM player")!
/// let name: String = try row.value(named: "name")
/// let id = try row.value(at: 0, as: Int64.self)
/// ```
public struct Row: Sendable, Hashable {
    private var columns: RowColumns
    /// The values, in column order.
    public private(set) var values: [DatabaseValue]

    init(columns: RowColumns, values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    /// Reads the current row of `statement`.
    public init(statement: Statement) {
        let columns = statement.columns
        var values = [DatabaseValue]()
        values.reserveCapacity(columns.names.count)
        for index in 0..<columns.names.count {
            values.append(statement.column(at: index))
        }
        self.init(columns: columns, values: values)
    }

    /// A row with these columns, in order. A repeated name keeps its last value.
    public init(_ pairs: [(String, DatabaseValue)]) {
        var names = [String]()
        var values = [DatabaseValue]()
        var positions = [String: Int]()
        for (name, value) in pairs {
            if let position = positions[RowColumns.fold(name)] {
                values[position] = value
            } else {
                positions[RowColumns.fold(name)] = names.count
                names.append(name)
                values.append(value)
            }
        }
        self.init(columns: RowColumns(names: names), values: values)
    }

    /// A row of `values` under `columnNames`, in order. Unlike `init(_:)`, a repeated name keeps
    /// every column, as a query's result has them (by name, the first is found): how another
    /// engine's rows become `Row`s.
    public init(columnNames: [String], values: [DatabaseValue]) {
        precondition(columnNames.count == values.count, "a row needs one value per column")
        self.init(columns: RowColumns(names: columnNames), values: values)
    }

    /// A row with this row's columns and other `values`: the next row of the same result,
    /// sharing the column names and their lookup.
    public func withValues(_ values: [DatabaseValue]) -> Row {
        precondition(values.count == count, "a row needs one value per column")
        return Row(columns: columns, values: values)
    }

    /// The column names, in order.
    public var columnNames: [String] { columns.names }

    /// The number of columns.
    public var count: Int { values.count }

    /// Whether the row has a column with this name (ASCII case-insensitive).
    public func hasColumn(_ name: String) -> Bool {
        columns.index(of: name) != nil
    }

    /// The value at `index` (0-based).
    public subscript(index: Int) -> DatabaseValue {
        values[index]
    }

    /// The value of the column named `name`, or nil when the row has no such column.
    /// Setting a value replaces the column's value, or appends a new column.
    public subscript(name: String) -> DatabaseValue? {
        get { columns.index(of: name).map { values[$0] } }
        set {
            if let index = columns.index(of: name) {
                if let newValue {
                    values[index] = newValue
                } else {
                    var pairs = Array(zip(columns.names, values))
                    pairs.remove(at: index)
                    self = Row(pairs)
                }
            } else if let newValue {
                columns = RowColumns(names: columns.names + [name])
                values.append(newValue)
            }
        }
    }

    /// The value at `index` converted to `T`.
    public func value<T: DatabaseValueConvertible>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else {
            throw DatabaseError(kind: .columnNotFound, message: "no column at index \(index) in a row of \(count)")
        }
        return try T.decode(values[index], column: columns.names[index])
    }

    /// The value of the column named `name` converted to `T`.
    public func value<T: DatabaseValueConvertible>(named name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.index(of: name) else {
            throw DatabaseError(kind: .columnNotFound, message: "no column named \"\(name)\"", column: name)
        }
        return try T.decode(values[index], column: columns.names[index])
    }

    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.columns.names == rhs.columns.names && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns.names)
        hasher.combine(values)
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// A row from a literal, in the literal's order: `["name": "Ann", "score": 10.5, "age": nil]`.
    public init(dictionaryLiteral elements: (String, DatabaseValue)...) {
        self.init(elements)
    }
}

extension Row: CustomStringConvertible {
    public var description: String {
        "[" + zip(columns.names, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}
