import Foundation

/// How the row encoder and decoder store a record's `Date` properties.
///
/// Choose it per record type with `static var databaseDateStrategy`. Whatever the
/// strategy, reading also accepts SQLite date text (`yyyy-MM-dd HH:mm:ss.SSS`, a `T`
/// separator, fewer fields, `Z` or `±HH:MM` offsets), so a column can change strategy
/// without losing old rows. Dates nested inside JSON-stored values follow `JSONEncoder`.
public enum DatabaseDateStrategy: Sendable, Hashable {
    /// UTC TEXT `yyyy-MM-dd HH:mm:ss.SSS` (the default): what SQLite's date functions read,
    /// sorts chronologically, millisecond precision. The same as `Date.databaseValue`.
    /// Numbers read as seconds since 1970.
    case text
    /// REAL seconds since 1970 (full `Double` precision).
    case secondsSince1970
    /// INTEGER milliseconds since 1970, rounded.
    case millisecondsSince1970

    /// The stored value for `date`.
    func databaseValue(for date: Date) throws -> DatabaseValue {
        switch self {
        case .text:
            return try date.databaseValue
        case .secondsSince1970:
            return try date.timeIntervalSince1970.databaseValue
        case .millisecondsSince1970:
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
            guard let integer = Int64(exactly: milliseconds) else {
                throw DatabaseError.encoding("Date \(date) does not fit in INTEGER milliseconds")
            }
            return .integer(integer)
        }
    }

    /// The date a stored value holds, or nil when it holds none.
    func date(from value: DatabaseValue) -> Date? {
        switch (self, value) {
        case (.millisecondsSince1970, .integer(let milliseconds)):
            Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        case (.millisecondsSince1970, .real(let milliseconds)):
            Date(timeIntervalSince1970: milliseconds / 1000)
        default:
            Date.fromDatabaseValue(value)
        }
    }
}
