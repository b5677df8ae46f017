import Foundation

// Integers are stored as INTEGER (64-bit signed). Storing a value outside Int64's range
// and reading a value outside the target type's range are errors, never a wrap.
extension DatabaseValueConvertible where Self: FixedWidthInteger {
    public var databaseValue: DatabaseValue {
        get throws {
            guard let value = Int64(exactly: self) else {
                throw DatabaseError.encoding("\(Self.self) value does not fit in SQLite's 64-bit signed INTEGER")
            }
            return .integer(value)
        }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        switch value {
        case .integer(let integer): Self(exactly: integer)
        case .real(let real): Self(exactly: real)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {}
extension Int8: DatabaseValueConvertible {}
extension Int16: DatabaseValueConvertible {}
extension Int32: DatabaseValueConvertible {}
extension Int64: DatabaseValueConvertible {}
extension UInt: DatabaseValueConvertible {}
extension UInt8: DatabaseValueConvertible {}
extension UInt16: DatabaseValueConvertible {}
extension UInt32: DatabaseValueConvertible {}
extension UInt64: DatabaseValueConvertible {}

/// Stored as INTEGER 0 or 1; any non-zero integer reads as `true`.
extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        if case .integer(let integer) = value { return integer != 0 }
        return nil
    }
}

/// Stored as REAL. NaN is an encoding error: SQLite would silently store it as NULL.
/// Infinities are stored and read back as they are.
extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        get throws {
            guard !isNaN else { throw DatabaseError.encoding("NaN cannot be stored: SQLite turns it into NULL") }
            return .real(self)
        }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: nil
        }
    }
}

/// Stored as REAL, like `Double`. Reading a finite number beyond `Float`'s range is a
/// decoding error (it would become an infinity); other numbers round to the nearest `Float`.
extension Float: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        get throws { try Double(self).databaseValue }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Float? {
        guard let double = Double.fromDatabaseValue(value) else { return nil }
        let float = Float(double)
        return float.isFinite || !double.isFinite ? float : nil
    }
}

/// Stored as TEXT (UTF-8). Stored text that is not valid UTF-8 reads as a BLOB (see
/// ``Statement/column(at:)``), so reading it as `String` is a decoding error, never a repair.
extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}

/// Stored as BLOB. An empty `Data` stays an empty blob (not NULL).
extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? {
        if case .blob(let data) = value { return data }
        return nil
    }
}

/// Stored as BLOB, like `Data`.
extension Array: DatabaseValueConvertible where Element == UInt8 {
    public var databaseValue: DatabaseValue { .blob(Data(self)) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        Data.fromDatabaseValue(value).map { [UInt8]($0) }
    }
}
