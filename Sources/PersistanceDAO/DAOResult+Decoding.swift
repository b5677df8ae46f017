import Persistance

/// Implemented by `Optional`, so results can be converted to optional return types.
protocol OptionalResult {
    static var wrappedType: Any.Type { get }
    static func wrapping(_ value: Any?) -> Self
}

extension Optional: OptionalResult {
    static var wrappedType: Any.Type { Wrapped.self }
    static func wrapping(_ value: Any?) -> Self { value.map { $0 as! Wrapped } }
}

/// Implemented by `Array`, so results can be converted to array return types.
protocol ArrayResult {
    static var elementType: Any.Type { get }
    static func collecting(_ values: [Any]) -> Self
}

extension Array: ArrayResult {
    static var elementType: Any.Type { Element.self }
    static func collecting(_ values: [Any]) -> Self { values.map { $0 as! Element } }
}

extension DAOResult {
    /// The result as `type`, the return type of a typed DAO method: an optional for a
    /// one-row result (`String?`, `Row?`, `Message?`), an array for a many-row result or a
    /// `foreach` select (`[Int64]`, `[Row]`, `[Message]`), `Int` for a write's changes,
    /// `Void`, or `DAOResult` itself. A non-optional one-row type requires a row. A write
    /// returns its changes as `Int` and, when it inserted a row, that row's id as `Int64`.
    /// A `{}` row also converts to `[String: DAOValue]` (see `Row.daoValues`).
    /// - Throws: `DAOError.Kind.resultTypeMismatch` when the result does not fit `type`;
    ///   a `DatabaseError` when a value does not convert.
    public func decode<T>(_ type: T.Type = T.self) throws -> T {
        try decode(as: type) as! T
    }

    /// The result as an optional row, like `decode(_:)`; a one-row result converts without
    /// the dynamic casts of the general path.
    public func decode(_ type: Row?.Type) throws -> Row? {
        if case .row(let row) = self { return row }
        return try decode(as: type) as! Row?
    }

    /// The result as an optional value, like `decode(_:)`; a one-value result converts
    /// without the dynamic casts of the general path.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value?.Type) throws -> Value? {
        if case .value(let value) = self { return value == .null ? nil : try Self.convert(value, to: Value.self) }
        return try decode(as: type) as! Value?
    }

    private func decode(as type: Any.Type) throws -> Any {
        if type == Void.self { return () }
        if type == DAOResult.self { return self }
        if let optional = type as? any OptionalResult.Type {
            return optional.wrapping(try single(as: optional.wrappedType))
        }
        if let array = type as? any ArrayResult.Type {
            return array.collecting(try elements().map { try $0.decode(as: array.elementType) })
        }
        guard let value = try single(as: type) else {
            if case .done = self {
                throw DAOError(.resultTypeMismatch, "the method inserted no row, and \(type) is not optional")
            }
            throw DAOError(.resultTypeMismatch, "the method returned no row, and \(type) is not optional")
        }
        return value
    }

    /// The results of a many-row result, one per row or element.
    private func elements() throws -> [DAOResult] {
        switch self {
        case .values(let values): values.map(DAOResult.value)
        case .rows(let rows): rows.map(DAOResult.row)
        case .records(let records): records.map(DAOResult.record)
        case .each(let results): results
        default: throw DAOError(.resultTypeMismatch, "the method returns one result, not an array")
        }
    }

    /// The one value of a one-row result as `type`, nil when there is none.
    private func single(as type: Any.Type) throws -> Any? {
        switch self {
        case .done(let changes):
            if type == Int.self { return changes }
            if type == Int64.self { return nil }
        case .inserted(let changes, let rowID):
            if type == Int.self { return changes }
            if type == Int64.self { return rowID }
        case .value(let value):
            guard value != .null else { return nil }
            guard let convertible = type as? any DatabaseValueConvertible.Type else { break }
            return try Self.convert(value, to: convertible)
        case .row(let row):
            guard let row else { return nil }
            if type == Row.self { return row }
            if type == [String: DAOValue].self { return row.daoValues }
        case .record(let record):
            guard let record else { return nil }
            if Swift.type(of: record) == type { return record }
        default:
            break
        }
        throw DAOError(.resultTypeMismatch, "a \(shapeName) result cannot be returned as \(type)")
    }

    private static func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, to type: T.Type) throws -> T {
        try T.decode(value, column: "result")
    }

    private var shapeName: String {
        switch self {
        case .done, .inserted: "write"
        case .value: "value"
        case .values: "value array"
        case .row: "row"
        case .rows: "row array"
        case .record(let record): record.map { "\(Swift.type(of: $0))" } ?? "record"
        case .records: "record array"
        case .each: "foreach"
        }
    }
}

extension Row {
    /// The row as a dictionary, column name → value, for `{}` results; a NULL column is
    /// left out, so `row.daoValues["name"]` is nil for NULL (as a missing key of the seed's
    /// `NSDictionary`).
    public var daoValues: [String: DAOValue] {
        var values = [String: DAOValue](minimumCapacity: count)
        for (name, value) in zip(columnNames, self.values) where value != .null {
            values[name] = DAOValue(databaseValue: value)
        }
        return values
    }
}
