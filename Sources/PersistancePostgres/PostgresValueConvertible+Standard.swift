#if PostgreSQL
import Foundation
import Persistance
import PostgresNIO

// Integers bind as BIGINT (Int, Int64), INTEGER (Int32) or SMALLINT (Int16), and read from any of
// the three when the value fits the target type: out of range is a decoding error, never a wrap.
extension PostgresValueConvertible where Self: FixedWidthInteger & SignedInteger {
    public static func fromPostgres(_ cell: PostgresCell) -> Self? {
        cell.decoded(Int64.self, from: PostgresDataType.integers).flatMap(Self.init(exactly:))
    }
}

/// Binds as BIGINT.
extension Int: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) { bindings.append(Int64(self)) }
}

/// Binds as BIGINT.
extension Int64: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) { bindings.append(self) }
}

/// Binds as INTEGER.
extension Int32: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) { bindings.append(self) }
}

/// Binds as SMALLINT.
extension Int16: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) { bindings.append(self) }
}

/// Binds as DOUBLE PRECISION; reads DOUBLE PRECISION, REAL and integers that convert exactly.
/// NaN is an encoding error, as on SQLite, so that the same code behaves the same on both engines.
extension Double: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) throws {
        guard !isNaN else { throw DatabaseError(kind: .encoding, message: "NaN cannot be stored") }
        bindings.append(self)
    }

    public static func fromPostgres(_ cell: PostgresCell) -> Double? {
        cell.decoded(Double.self, from: [.float4, .float8])
            ?? cell.decoded(Int64.self, from: PostgresDataType.integers).flatMap(Double.init(exactly:))
    }
}

/// Binds as TEXT; reads TEXT, VARCHAR, CHAR and NAME. PostgreSQL text cannot hold a NUL
/// character: binding one is an encoding error.
extension String: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) throws {
        guard !utf8.contains(0) else {
            throw DatabaseError(kind: .encoding, message: "PostgreSQL text cannot hold a NUL character")
        }
        bindings.append(self)
    }

    public static func fromPostgres(_ cell: PostgresCell) -> String? {
        cell.decoded(String.self, from: [.text, .varchar, .bpchar, .name])
    }
}

/// Binds as BOOLEAN; reads BOOLEAN only.
extension Bool: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) { bindings.append(self) }

    public static func fromPostgres(_ cell: PostgresCell) -> Bool? {
        cell.decoded(Bool.self, from: [.bool])
    }
}
#endif
