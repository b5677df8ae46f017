import Foundation

/// Stored as UTC TEXT `yyyy-MM-dd HH:mm:ss.SSS`, the format SQLite's date functions read,
/// with millisecond precision. Reads that text (also with a `T` separator, fewer fields,
/// or a `Z` / `±HH:MM` offset), or an INTEGER / REAL number of seconds since 1970.
extension Date: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        get throws {
            guard let text = SQLiteDateFormat.string(from: self) else {
                throw DatabaseError.encoding("Date outside the years 0000–9999 cannot be stored as SQLite date text")
            }
            return .text(text)
        }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Date? {
        switch value {
        case .text(let text): SQLiteDateFormat.date(from: text)
        case .integer(let seconds): Date(timeIntervalSince1970: TimeInterval(seconds))
        case .real(let seconds): Date(timeIntervalSince1970: seconds)
        default: nil
        }
    }
}

/// Stored as TEXT (`uuidString`); also reads a 16-byte BLOB.
extension UUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(uuidString) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> UUID? {
        switch value {
        case .text(let text):
            return UUID(uuidString: text)
        case .blob(let data) where data.count == 16:
            let b = [UInt8](data)
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                               b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        default:
            return nil
        }
    }
}

/// Stored as TEXT (`absoluteString`).
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(absoluteString) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> URL? {
        String.fromDatabaseValue(value).flatMap { URL(string: $0) }
    }
}

/// Stored as TEXT so that no digit is lost; also reads INTEGER and REAL (a REAL that is
/// not finite or beyond `Decimal`'s range does not convert).
extension Decimal: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(description) }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Decimal? {
        switch value {
        case .text(let text): Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        case .integer(let integer): Decimal(integer)
        case .real(let real):
            // Decimal(Double) traps on an infinity and gives NaN beyond its range.
            real.isFinite ? Decimal(real).nonNaN : nil
        default: nil
        }
    }

    private var nonNaN: Decimal? { isNaN ? nil : self }
}
