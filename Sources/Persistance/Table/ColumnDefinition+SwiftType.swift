import Foundation

extension ColumnDefinition {
    /// The column for a property of Swift type `T`: the affinity follows from the type,
    /// NOT NULL from its not being optional, and `defaultValue` (stored as the record stores
    /// the property) becomes the column's DEFAULT.
    ///
    /// Integers and `Bool` are INTEGER, `Double` and `Float` REAL, `String`, `UUID`, `URL` and
    /// `Decimal` TEXT, `Data` and `[UInt8]` BLOB, `Date` whatever `dateStrategy` stores,
    /// `RawRepresentable` types as their raw value, and any other `Encodable` type JSON TEXT.
    public static func property<T: Encodable>(
        _ name: String, of type: T.Type, primaryKey: PrimaryKey? = nil, unique: Bool = false,
        default defaultValue: T? = nil, dateStrategy: DatabaseDateStrategy = .text
    ) -> ColumnDefinition {
        let stored = defaultValue.flatMap {
            try? RecordColumnCoding.databaseValue(forEncodable: $0, column: name, strategy: dateStrategy)
        }
        var column = ColumnDefinition(
            name, affinity: affinity(of: T.self, dateStrategy: dateStrategy), primaryKey: primaryKey,
            notNull: !(T.self is any OptionalValue.Type), unique: unique, default: stored)
        column.valueType = valueType(of: T.self, dateStrategy: dateStrategy)
        return column
    }

    /// The column for a property converted by `coder`: its affinity is the coder's; NOT NULL
    /// unless `optional`.
    public static func property<Coder: ColumnCoder>(
        _ name: String, codedBy coder: Coder.Type, optional: Bool, primaryKey: PrimaryKey? = nil,
        unique: Bool = false, default defaultValue: Coder.Value? = nil
    ) -> ColumnDefinition {
        let stored = defaultValue.flatMap { try? Coder.databaseValue(for: $0) }
        return ColumnDefinition(
            name, affinity: Coder.affinity, primaryKey: primaryKey, notNull: !optional, unique: unique,
            default: stored)
    }

    /// The affinity the values of `type` are stored with.
    static func affinity(of type: Any.Type, dateStrategy: DatabaseDateStrategy) -> Affinity {
        if let optional = type as? any OptionalValue.Type { return affinity(of: optional.wrappedType, dateStrategy: dateStrategy) }
        if type == Bool.self || type is any FixedWidthInteger.Type { return .integer }
        if type is any BinaryFloatingPoint.Type { return .real }
        if type == Data.self || type == [UInt8].self { return .blob }
        if type == Date.self {
            switch dateStrategy {
            case .text: return .text
            case .secondsSince1970: return .real
            case .millisecondsSince1970: return .integer
            }
        }
        if let raw = type as? any RawRepresentable.Type { return affinity(of: rawValueType(of: raw), dateStrategy: dateStrategy) }
        return .text  // String, UUID, URL, Decimal, and JSON text for the rest
    }

    /// The value type of `type`'s values: see ``ValueType``. A `Date` is a date only when
    /// stored as text; stored as a number, it is that number.
    static func valueType(of type: Any.Type, dateStrategy: DatabaseDateStrategy) -> ValueType {
        if let optional = type as? any OptionalValue.Type { return valueType(of: optional.wrappedType, dateStrategy: dateStrategy) }
        if type == Bool.self { return .bool }
        if type == Int16.self || type == Int8.self || type == UInt8.self { return .int16 }
        if type == Int32.self || type == UInt16.self { return .int32 }
        if type is any FixedWidthInteger.Type { return .int64 }
        if type is any BinaryFloatingPoint.Type { return .double }
        if type == Data.self || type == [UInt8].self { return .data }
        if type == Date.self {
            switch dateStrategy {
            case .text: return .date
            case .secondsSince1970: return .double
            case .millisecondsSince1970: return .int64
            }
        }
        if type == UUID.self { return .uuid }
        if type == Decimal.self { return .decimal }
        if type == String.self || type == URL.self || type == Character.self { return .string }
        if let raw = type as? any RawRepresentable.Type { return valueType(of: rawValueType(of: raw), dateStrategy: dateStrategy) }
        return .json
    }

    private static func rawValueType<R: RawRepresentable>(of type: R.Type) -> Any.Type {
        R.RawValue.self
    }
}

/// `Optional`, seen through its wrapped type.
protocol OptionalValue {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }
}
