import Foundation

/// The column reads of `@Table` records from a ``Row`` (the portable API's rows), with the
/// same conversions and the same errors naming the column as the reads from a statement.
extension RecordColumnCoding {
    /// The non-optional `T` in column `index` of `row`, named `column` in errors.
    @inlinable
    public static func value<T: DatabaseValueConvertible>(
        _ type: T.Type, in row: borrowing Row, at index: Int, column: String
    ) throws -> T {
        try T.decode(row.values[index], column: column)
    }

    /// The `T` in column `index` of `row`, or `defaultValue` when the column is NULL.
    @inlinable
    public static func value<T: DatabaseValueConvertible>(
        _ type: T.Type, in row: borrowing Row, at index: Int, column: String, default defaultValue: @autoclosure () -> T
    ) throws -> T {
        let stored = row.values[index]
        return stored.isNull ? defaultValue() : try T.decode(stored, column: column)
    }

    /// The optional `T` in column `index` of `row`: nil when it is NULL.
    @inlinable
    public static func value<T: DatabaseValueConvertible>(
        _ type: T?.Type, in row: borrowing Row, at index: Int, column: String
    ) throws -> T? {
        let stored = row.values[index]
        return stored.isNull ? nil : try T.decode(stored, column: column)
    }

    /// The `Date` in column `index` of `row`, stored with `strategy`; nil when it is NULL.
    public static func optionalDate(
        in row: borrowing Row, at index: Int, column: String, strategy: DatabaseDateStrategy
    ) throws -> Date? {
        try optionalDate(row.values[index], column: column, strategy: strategy)
    }

    /// The non-optional `Date` in column `index` of `row`, stored with `strategy`;
    /// `defaultValue` (when given) for NULL.
    public static func date(
        in row: borrowing Row, at index: Int, column: String, strategy: DatabaseDateStrategy,
        default defaultValue: Date? = nil
    ) throws -> Date {
        try date(row.values[index], column: column, strategy: strategy, default: defaultValue)
    }

    /// Any other `Decodable` value in column `index` of `row` (see
    /// `decodable(_:in:at:column:strategy:)` on a statement).
    public static func decodable<T: Decodable>(
        _ type: T.Type, in row: borrowing Row, at index: Int, column: String, strategy: DatabaseDateStrategy
    ) throws -> T {
        try ColumnValueCoding.decode(T.self, from: row.values[index], dateStrategy: strategy, column: column)
    }

    /// A `Decodable` value in column `index` of `row`, or `defaultValue` when it is NULL.
    public static func decodable<T: Decodable>(
        _ type: T.Type, in row: borrowing Row, at index: Int, column: String, strategy: DatabaseDateStrategy,
        default defaultValue: @autoclosure () -> T
    ) throws -> T {
        if row.values[index].isNull { return defaultValue() }
        return try decodable(T.self, in: row, at: index, column: column, strategy: strategy)
    }

    /// The value of column `index` of `row` converted by `coder`; nil when it is NULL.
    public static func optionalCoded<Coder: ColumnCoder>(
        by coder: Coder.Type, in row: borrowing Row, at index: Int, column: String
    ) throws -> Coder.Value? {
        try optionalCoded(by: coder, row.values[index], column: column)
    }

    /// The non-optional value of column `index` of `row` converted by `coder`; `defaultValue`
    /// (when given) for NULL, else NULL is given to the coder.
    public static func coded<Coder: ColumnCoder>(
        by coder: Coder.Type, in row: borrowing Row, at index: Int, column: String, default defaultValue: Coder.Value? = nil
    ) throws -> Coder.Value {
        try coded(by: coder, row.values[index], column: column, default: defaultValue)
    }
}
