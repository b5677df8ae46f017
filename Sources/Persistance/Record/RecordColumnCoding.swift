import Foundation

/// The column conversions the `@Table` macro's generated code calls: reading a property from
/// its column by index, and converting a property to the value stored.
///
/// Common column types (`String`, integers, `Double`, `Data`) are read straight from the
/// statement when their storage class is their own; everything else converts strictly
/// through `DatabaseValue`. NULL in a non-optional property without a default is a decoding
/// error naming the column, as is a value of the wrong type.
public enum RecordColumnCoding {
    /// The non-optional `T` in column `index`, named `column` in errors.
    @inlinable @inline(__always)
    public static func value<T: DatabaseValueConvertible>(
        _ type: T.Type, in statement: Statement, at index: Int, column: String
    ) throws -> T {
        if let value = statement.exactValue(T.self, at: index) { return value }
        return try T.decode(statement.column(at: index), column: column)
    }

    /// The `T` in column `index`, or `defaultValue` when the column is NULL.
    @inlinable @inline(__always)
    public static func value<T: DatabaseValueConvertible>(
        _ type: T.Type, in statement: Statement, at index: Int, column: String, default defaultValue: @autoclosure () -> T
    ) throws -> T {
        switch statement.exactValueOrNull(T.self, at: index) {
        case .some(let value?): return value
        case .some(nil): return defaultValue()
        case nil: return try T.decode(statement.column(at: index), column: column)
        }
    }

    /// The optional `T` in column `index`: nil when it is NULL.
    @inlinable @inline(__always)
    public static func value<T: DatabaseValueConvertible>(
        _ type: T?.Type, in statement: Statement, at index: Int, column: String
    ) throws -> T? {
        if let value = statement.exactValueOrNull(T.self, at: index) { return value }
        return try T.decode(statement.column(at: index), column: column)
    }

    /// The `Date` in column `index`, stored with `strategy`; nil when it is NULL.
    public static func optionalDate(
        in statement: Statement, at index: Int, column: String, strategy: DatabaseDateStrategy
    ) throws -> Date? {
        try optionalDate(statement.column(at: index), column: column, strategy: strategy)
    }

    /// The `Date` `stored` with `strategy`; nil when it is NULL.
    static func optionalDate(_ stored: DatabaseValue, column: String, strategy: DatabaseDateStrategy) throws -> Date? {
        if stored.isNull { return nil }
        guard let date = strategy.date(from: stored) else {
            throw DatabaseError.decoding(column: column, expected: "Date", found: stored)
        }
        return date
    }

    /// The non-optional `Date` in column `index`, stored with `strategy`; `defaultValue`
    /// (when given) for NULL.
    public static func date(
        in statement: Statement, at index: Int, column: String, strategy: DatabaseDateStrategy,
        default defaultValue: Date? = nil
    ) throws -> Date {
        try date(statement.column(at: index), column: column, strategy: strategy, default: defaultValue)
    }

    /// The non-optional `Date` `stored` with `strategy`; `defaultValue` (when given) for NULL.
    static func date(
        _ stored: DatabaseValue, column: String, strategy: DatabaseDateStrategy, default defaultValue: Date?
    ) throws -> Date {
        if let date = try optionalDate(stored, column: column, strategy: strategy) { return date }
        if let defaultValue { return defaultValue }
        throw DatabaseError.decoding(column: column, expected: "Date", found: .null)
    }

    /// Any other `Decodable` value in column `index`: a raw value for single-value types
    /// (`String` or `Int` enums), JSON text for structured ones. An optional `T` reads NULL as nil.
    public static func decodable<T: Decodable>(
        _ type: T.Type, in statement: Statement, at index: Int, column: String, strategy: DatabaseDateStrategy
    ) throws -> T {
        try ColumnValueCoding.decode(T.self, from: statement.column(at: index), dateStrategy: strategy, column: column)
    }

    /// A `Decodable` value in column `index`, or `defaultValue` when the column is NULL.
    public static func decodable<T: Decodable>(
        _ type: T.Type, in statement: Statement, at index: Int, column: String, strategy: DatabaseDateStrategy,
        default defaultValue: @autoclosure () -> T
    ) throws -> T {
        if statement.isNull(at: index) { return defaultValue() }
        return try decodable(T.self, in: statement, at: index, column: column, strategy: strategy)
    }

    /// The value of column `index` converted by `coder`; nil when it is NULL.
    public static func optionalCoded<Coder: ColumnCoder>(
        by coder: Coder.Type, in statement: Statement, at index: Int, column: String
    ) throws -> Coder.Value? {
        try optionalCoded(by: coder, statement.column(at: index), column: column)
    }

    /// `stored` converted by `coder`; nil when it is NULL.
    static func optionalCoded<Coder: ColumnCoder>(
        by coder: Coder.Type, _ stored: DatabaseValue, column: String
    ) throws -> Coder.Value? {
        if stored.isNull { return nil }
        return try coded(by: coder, stored, column: column, default: nil)
    }

    /// The non-optional value of column `index` converted by `coder`; `defaultValue` (when
    /// given) for NULL, else NULL is given to the coder.
    public static func coded<Coder: ColumnCoder>(
        by coder: Coder.Type, in statement: Statement, at index: Int, column: String,
        default defaultValue: Coder.Value? = nil
    ) throws -> Coder.Value {
        try coded(by: coder, statement.column(at: index), column: column, default: defaultValue)
    }

    /// `stored` converted by `coder`; `defaultValue` (when given) for NULL, else NULL is
    /// given to the coder.
    static func coded<Coder: ColumnCoder>(
        by coder: Coder.Type, _ stored: DatabaseValue, column: String, default defaultValue: Coder.Value?
    ) throws -> Coder.Value {
        if stored.isNull, let defaultValue { return defaultValue }
        return try ColumnValueCoding.attributing(to: column, kind: .decoding) {
            try Coder.value(from: stored, column: column)
        }
    }

    // MARK: Writing

    /// The stored value of a `Date` (NULL for nil) with `strategy`.
    public static func databaseValue(forDate date: Date?, strategy: DatabaseDateStrategy) throws -> DatabaseValue {
        guard let date else { return .null }
        return try strategy.databaseValue(for: date)
    }

    /// The stored value of any other `Encodable` value: its raw value for single-value types,
    /// JSON text for structured ones, NULL for nil.
    public static func databaseValue<T: Encodable>(
        forEncodable value: T, column: String, strategy: DatabaseDateStrategy
    ) throws -> DatabaseValue {
        try ColumnValueCoding.databaseValue(for: value, dateStrategy: strategy, column: column)
    }

    /// The stored value `coder` makes of `value` (NULL for nil).
    public static func databaseValue<Coder: ColumnCoder>(
        for value: Coder.Value?, codedBy coder: Coder.Type, column: String
    ) throws -> DatabaseValue {
        guard let value else { return .null }
        return try ColumnValueCoding.attributing(to: column, kind: .encoding) { try Coder.databaseValue(for: value) }
    }
}
