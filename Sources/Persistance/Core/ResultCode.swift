#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// A SQLite result code: a primary code (`SQLITE_CONSTRAINT`) or an extended one
/// (`SQLITE_CONSTRAINT_UNIQUE`), whose low byte is its primary code.
///
/// Catch a specific failure with a pattern:
/// ```swift
/// do { try players.insert(&player, in: conn) }
/// catch ResultCode.constraintUnique { … }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low byte of an extended code.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English description of the code (`sqlite3_errstr`).
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    public static let ok = ResultCode(rawValue: 0)
    public static let error = ResultCode(rawValue: 1)
    public static let `internal` = ResultCode(rawValue: 2)
    public static let permission = ResultCode(rawValue: 3)
    public static let abort = ResultCode(rawValue: 4)
    public static let busy = ResultCode(rawValue: 5)
    public static let locked = ResultCode(rawValue: 6)
    public static let noMemory = ResultCode(rawValue: 7)
    public static let readOnly = ResultCode(rawValue: 8)
    public static let interrupt = ResultCode(rawValue: 9)
    public static let ioError = ResultCode(rawValue: 10)
    public static let corrupt = ResultCode(rawValue: 11)
    public static let notFound = ResultCode(rawValue: 12)
    public static let full = ResultCode(rawValue: 13)
    public static let cantOpen = ResultCode(rawValue: 14)
    public static let `protocol` = ResultCode(rawValue: 15)
    public static let schema = ResultCode(rawValue: 17)
    public static let tooBig = ResultCode(rawValue: 18)
    public static let constraint = ResultCode(rawValue: 19)
    public static let mismatch = ResultCode(rawValue: 20)
    public static let misuse = ResultCode(rawValue: 21)
    public static let authorization = ResultCode(rawValue: 23)
    public static let range = ResultCode(rawValue: 25)
    public static let notADatabase = ResultCode(rawValue: 26)
    public static let row = ResultCode(rawValue: 100)
    public static let done = ResultCode(rawValue: 101)

    public static let constraintCheck = ResultCode(rawValue: 19 | (1 << 8))
    public static let constraintForeignKey = ResultCode(rawValue: 19 | (3 << 8))
    public static let constraintNotNull = ResultCode(rawValue: 19 | (5 << 8))
    public static let constraintPrimaryKey = ResultCode(rawValue: 19 | (6 << 8))
    public static let constraintTrigger = ResultCode(rawValue: 19 | (7 << 8))
    public static let constraintUnique = ResultCode(rawValue: 19 | (8 << 8))
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: 8 | (4 << 8))

    /// Matches a `DatabaseError` whose primary or extended result code is this code.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError, let code = error.extendedResultCode else { return false }
        return code == pattern || code.primary == pattern
    }
}
