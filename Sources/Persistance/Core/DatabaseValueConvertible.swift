/// A Swift type that can be stored in and read from one SQLite column.
///
/// Conversions are strict: reading never guesses. A `String` column read as `Int`, an
/// integer out of the target type's range, or NULL read into a non-optional type is a
/// decoding error naming the column; storing a value SQLite cannot hold faithfully
/// (`UInt64` above `Int64.max`, `Double.nan`) is an encoding error, never a silent NULL.
///
/// `RawRepresentable` types get the conformance by declaring it:
/// ```swift
/// enum Color: String, DatabaseValueConvertible { case red, green }
/// ```
public protocol DatabaseValueConvertible: Sendable {
    /// The value to store. Throws `DatabaseError` of kind `.encoding` when it cannot be stored faithfully.
    var databaseValue: DatabaseValue { get throws }

    /// The Swift value for a stored value, or nil when the stored value cannot represent this type.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?

    /// The value of column `index` in the current row of `statement`; a decoding error naming
    /// the column when it does not fit. What typed selections read each column with: the
    /// default reads common types straight from SQLite and converts anything else through
    /// ``fromDatabaseValue(_:)``, so a conformance rarely needs its own.
    static func read(from statement: Statement, at index: Int) throws -> Self
}

extension DatabaseValueConvertible {
    /// Reads `String`, integers, `Double` and `Data` straight from SQLite when the column's
    /// storage class is their own; converts anything else through ``fromDatabaseValue(_:)``.
    /// As a conformance's witness it is specialized for the conforming type.
    @inlinable
    public static func read(from statement: Statement, at index: Int) throws -> Self {
        if let value = statement.exactValue(Self.self, at: index) { return value }
        return try statement.value(at: index, as: Self.self)
    }

    /// Converts a stored value, throwing a decoding error that names `column` when it does not fit.
    /// Inlined, so that it is specialized for the type read.
    @inlinable
    public static func decode(_ value: DatabaseValue, column: @autoclosure () -> String) throws -> Self {
        if let decoded = fromDatabaseValue(value) { return decoded }
        throw DatabaseError.decoding(column: column(), expected: String(describing: Self.self), found: value)
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        get throws {
            switch self {
            case .none: .null
            case .some(let wrapped): try wrapped.databaseValue
            }
        }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if case .null = value { return .some(.none) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }

    /// Nil for NULL, else the wrapped type's value.
    @inlinable
    public static func read(from statement: Statement, at index: Int) throws -> Wrapped? {
        if statement.isNull(at: index) { return nil }
        return try Wrapped.read(from: statement, at: index)
    }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        get throws { try rawValue.databaseValue }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
}
