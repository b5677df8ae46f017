#if PostgreSQL
import Foundation
import Persistance
import PostgresNIO

/// Binds as BYTEA; reads BYTEA. An empty `Data` stays empty (not NULL).
extension Data: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) throws { try bindings.append(self) }

    public static func fromPostgres(_ cell: PostgresCell) -> Data? {
        cell.decoded(Data.self, from: [.bytea])
    }
}

/// Binds as TIMESTAMPTZ, with PostgreSQL's microsecond precision; reads TIMESTAMPTZ and
/// TIMESTAMP (taken as UTC). A date outside PostgreSQL's range (4713 BC to 294276 AD) is an
/// encoding error; `infinity` and `-infinity` are decoding errors.
extension Date: PostgresValueConvertible {
    /// The seconds since 1970 of PostgreSQL's first and (one past) last storable instants.
    private static let storableSeconds = -210_866_803_200.0..<9_224_318_016_000.0

    public func bind(into bindings: inout PostgresBindings) throws {
        guard Self.storableSeconds.contains(timeIntervalSince1970) else {
            throw DatabaseError(kind: .encoding, message: "Date outside PostgreSQL's range (4713 BC to 294276 AD)")
        }
        bindings.append(self)
    }

    public static func fromPostgres(_ cell: PostgresCell) -> Date? {
        guard cell.format == .binary, var bytes = cell.bytes, [.timestamptz, .timestamp].contains(cell.dataType),
            bytes.readableBytes == 8, let microseconds = bytes.readInteger(as: Int64.self),
            microseconds != .max, microseconds != .min
        else { return nil }
        return cell.decoded(Date.self, from: [.timestamptz, .timestamp])
    }
}

/// Binds as UUID; reads UUID only.
extension UUID: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) { bindings.append(self) }

    public static func fromPostgres(_ cell: PostgresCell) -> UUID? {
        cell.decoded(UUID.self, from: [.uuid])
    }
}

/// Binds as NUMERIC, keeping every digit; reads NUMERIC and integers. NaN is an encoding error
/// and a NUMERIC 'NaN' or infinity a decoding error, as on SQLite.
extension Decimal: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) throws {
        guard !isNaN else { throw DatabaseError(kind: .encoding, message: "Decimal NaN cannot be stored") }
        try bindings.append(self)
    }

    public static func fromPostgres(_ cell: PostgresCell) -> Decimal? {
        if cell.dataType == .numeric {
            // The binary form's sign field (after ndigits and weight): 0x0000 positive, 0x4000
            // negative; NaN and the infinities have others and no Decimal.
            guard cell.format == .binary, let bytes = cell.bytes,
                let sign = bytes.getInteger(at: bytes.readerIndex + 4, as: UInt16.self), sign == 0 || sign == 0x4000
            else { return nil }
            return cell.decoded(Decimal.self, from: [.numeric])
        }
        return cell.decoded(Int64.self, from: PostgresDataType.integers).map { Decimal($0) }
    }
}
#endif
