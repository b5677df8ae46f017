#if PostgreSQL
import Foundation
import Persistance
import PostgresNIO

extension DatabaseValue {
    /// The seconds from 1970 to 2000-01-01 UTC, PostgreSQL's epoch for dates and timestamps.
    private static let postgresEpoch: TimeInterval = 946_684_800

    /// The value SQLite would have stored for a PostgreSQL result cell's bytes (binary format, as
    /// postgres-nio asks for every column), so that the same code reads the same values on
    /// both engines: SMALLINT, INTEGER and BIGINT as integers; REAL and DOUBLE PRECISION as
    /// reals; BOOLEAN as 1 or 0; NUMERIC as its exact decimal text (as `Decimal` writes it);
    /// TEXT, VARCHAR, CHAR and NAME as text; BYTEA as a blob; UUID as uppercase text (as
    /// `UUID.uuidString`); TIMESTAMPTZ and TIMESTAMP (taken as UTC) as seconds since 1970
    /// to the millisecond (`timestampSeconds(microsecondsSince2000:)`), which `RowConverter`
    /// shows as SQLite's date text `yyyy-MM-dd HH:mm:ss.SSS` unless a record reads the column
    /// as a `Date`; DATE as `yyyy-MM-dd`; JSON and JSONB as their text.
    /// - Throws: `DatabaseError.Kind.decoding` for any other type, and for a date or timestamp
    ///   SQLite's text cannot show (infinite, or outside the years 0000–9999).
    init(_ bytes: consuming ByteBuffer?, of type: PostgresDataType) throws {
        guard var bytes else {
            self = .null
            return
        }
        self = try Self.value(of: type, in: &bytes)
    }

    /// The object identifiers of the types a cell converts from, as PostgreSQL fixes them
    /// (`pg_type`): constants the switch below compares directly, where each of postgres-nio's
    /// `PostgresDataType` constants is a call into its module.
    private enum TypeOID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let name: UInt32 = 19
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let json: UInt32 = 114
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let bpchar: UInt32 = 1042
        static let varchar: UInt32 = 1043
        static let date: UInt32 = 1082
        static let timestamp: UInt32 = 1114
        static let timestamptz: UInt32 = 1184
        static let numeric: UInt32 = 1700
        static let uuid: UInt32 = 2950
        static let jsonb: UInt32 = 3802
    }

    /// The value of a cell of `type` whose bytes are `bytes`, read to their end.
    private static func value(of type: PostgresDataType, in bytes: inout ByteBuffer) throws -> DatabaseValue {
        func unreadable(_ reason: String) -> DatabaseError {
            DatabaseError(kind: .decoding, message: "PostgreSQL \(type) value \(reason)")
        }
        let value: DatabaseValue?
        switch type.rawValue {
        case TypeOID.int2: value = bytes.readInteger(as: Int16.self).map { .integer(Int64($0)) }
        case TypeOID.int4: value = bytes.readInteger(as: Int32.self).map { .integer(Int64($0)) }
        case TypeOID.int8: value = bytes.readInteger(as: Int64.self).map { .integer($0) }
        case TypeOID.float4: value = bytes.readInteger(as: UInt32.self).map { .real(Double(Float(bitPattern: $0))) }
        case TypeOID.float8: value = bytes.readInteger(as: UInt64.self).map { .real(Double(bitPattern: $0)) }
        case TypeOID.bool: value = bytes.readInteger(as: UInt8.self).map { .integer($0 == 0 ? 0 : 1) }
        case TypeOID.numeric: value = PostgresNumericText.text(of: &bytes).map { .text($0) }
        case TypeOID.text, TypeOID.varchar, TypeOID.bpchar, TypeOID.name, TypeOID.json:
            value = bytes.readString(length: bytes.readableBytes).map { .text($0) }
        case TypeOID.jsonb:
            // JSONB's binary form is a version byte (1) and the JSON text.
            guard bytes.readInteger(as: UInt8.self) == 1 else { throw unreadable("has an unknown JSONB version") }
            value = bytes.readString(length: bytes.readableBytes).map { .text($0) }
        case TypeOID.bytea:
            // Copied once, straight from the buffer's memory.
            value = .blob(bytes.withUnsafeReadableBytes { cell in
                cell.isEmpty ? Data() : Data(bytes: cell.baseAddress!, count: cell.count)
            })
            bytes.moveReaderIndex(to: bytes.writerIndex)
        case TypeOID.uuid:
            value = bytes.readBytes(length: 16).map { b in
                .text(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                                  b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])).uuidString)
            }
        case TypeOID.timestamptz, TypeOID.timestamp:
            guard let microseconds = bytes.readInteger(as: Int64.self) else { throw unreadable("is truncated") }
            guard microseconds != .max, microseconds != .min else { throw unreadable("is infinite") }
            guard let seconds = Self.timestampSeconds(microsecondsSince2000: microseconds) else {
                throw unreadable("is outside the years 0000–9999")
            }
            value = .real(seconds)
        case TypeOID.date:
            guard let days = bytes.readInteger(as: Int32.self) else { throw unreadable("is truncated") }
            guard days != .max, days != .min else { throw unreadable("is infinite") }
            let date = Date(timeIntervalSince1970: Self.postgresEpoch + TimeInterval(days) * 86_400)
            guard case .text(let text)? = try? date.databaseValue else {
                throw unreadable("is outside the years 0000–9999")
            }
            value = .text(String(text.prefix(10)))
        default:
            throw unreadable("has no portable value: cast the column to a type that has one (::text)")
        }
        guard let value, bytes.readableBytes == 0 else { throw unreadable("is malformed") }
        return value
    }

    /// A timestamp cell's value (seconds since 1970, or NULL) as SQLite's date text.
    func timestampText() throws -> DatabaseValue {
        guard case .real(let seconds) = self else { return self }
        return try Date(timeIntervalSince1970: seconds).databaseValue
    }

    /// The seconds since 1970 of a timestamp `microseconds` after PostgreSQL's epoch, as the
    /// `Date` its SQLite date text reads as: rounded to the millisecond as the text rounds it,
    /// then summed as parsing the text sums them (the whole seconds, then the milliseconds);
    /// nil outside the years 0000–9999, which the text cannot show.
    static func timestampSeconds(microsecondsSince2000 microseconds: Int64) -> TimeInterval? {
        let date = Date(timeIntervalSince1970: postgresEpoch + TimeInterval(microseconds) / 1_000_000)
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        // 0000-01-01 and 10000-01-01 UTC, in milliseconds since 1970.
        guard (-62_167_219_200_000.0..<253_402_300_800_000.0).contains(milliseconds) else { return nil }
        let total = Int64(milliseconds)
        let millisecond = (total % 1000 + 1000) % 1000
        return TimeInterval((total - millisecond) / 1000) + TimeInterval(millisecond) / 1000
    }
}
#endif
