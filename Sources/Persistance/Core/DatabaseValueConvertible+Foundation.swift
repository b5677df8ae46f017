import Foundation

/// Stored as UTC TEXT `yyyy-MM-dd HH:mm:ss.SSS`, the format SQLite's date functions read,
/// with millisecond precision. Reads that text (also with a `T` separator, fewer fields,
/// or a `Z` / `±HH:MM` offset), or an INTEGER / REAL number of seconds since 1970 within
/// the years 0000–9999 (a number outside them, or not finite, is a decoding error).
extension Date: DatabaseValueConvertible {
    /// The seconds since 1970 of 0000-01-01 00:00 UTC and of 10000-01-01 00:00 UTC.
    private static let storableSeconds = -62_167_219_200.0..<253_402_300_800.0

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
        case .integer(let seconds): date(secondsSince1970: TimeInterval(seconds))
        case .real(let seconds): date(secondsSince1970: seconds)
        default: nil
        }
    }

    private static func date(secondsSince1970 seconds: TimeInterval) -> Date? {
        storableSeconds.contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
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

/// Stored as TEXT so that no digit is lost; NaN is an encoding error, like `Double.nan`.
/// Reads text that is a whole decimal number (`-12.5`, `3e-7`; anything else, even with a
/// numeric prefix such as `12abc`, is a decoding error), INTEGER and REAL (a REAL that is
/// not finite or beyond `Decimal`'s range does not convert).
extension Decimal: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        get throws {
            guard !isNaN else { throw DatabaseError.encoding("Decimal NaN cannot be stored: it would not read back") }
            return .text(description)
        }
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Decimal? {
        switch value {
        case .text(let text):
            isDecimalNumber(text) ? Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))?.nonNaN : nil
        case .integer(let integer): Decimal(integer)
        case .real(let real):
            // Decimal(Double) traps on an infinity and gives NaN beyond its range.
            real.isFinite ? Decimal(real).nonNaN : nil
        default: nil
        }
    }

    private var nonNaN: Decimal? { isNaN ? nil : self }

    /// Whether all of `text` is `[+-]digits[.digits][(e|E)[+-]digits]`, with a digit
    /// before or after the point.
    private static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func skipDigits() -> Int {
            let count = bytes.prefix { (0x30...0x39).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        func skip(_ characters: String) -> Bool {
            guard let first = bytes.first, characters.utf8.contains(first) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        _ = skip("+-")
        var digits = skipDigits()
        if skip(".") { digits += skipDigits() }
        guard digits > 0 else { return false }
        if skip("eE") {
            _ = skip("+-")
            guard skipDigits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
