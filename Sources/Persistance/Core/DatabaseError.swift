/// The one error type Persistance throws.
///
/// An error reported by SQLite has `kind == .sqlite` and carries the primary and extended
/// result codes, SQLite's message and the SQL text that failed (never the values bound to
/// it). Errors raised by the library itself have another `kind` and no result code.
///
/// ```swift
/// catch ResultCode.constraintUnique { … }        // by SQLite code
/// catch DatabaseError.Kind.decoding { … }         // by library kind
/// catch let error as DatabaseError where error.resultCode == .busy { … }
/// catch DatabaseError.Condition.uniqueViolation { … } // on every engine
/// ```
///
/// An error reported by a PostgreSQL server carries its SQLSTATE in `sqlState`. Code that
/// must work on both engines catches a ``Condition``, which both derive.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, at the library level. Each layer adds its own kinds.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// SQLite reported a failure; see `resultCode` and `extendedResultCode`.
        public static let sqlite = Kind(rawValue: "sqlite")
        /// The API was used in a way it does not allow (a closed connection, a wrong argument count, …).
        public static let misuse = Kind(rawValue: "misuse")
        /// A stored value could not be converted to the requested Swift type.
        public static let decoding = Kind(rawValue: "decoding")
        /// A Swift value cannot be stored faithfully (an unsigned integer above `Int64.max`, NaN, …).
        public static let encoding = Kind(rawValue: "encoding")
        /// A column was asked for by a name the row does not have.
        public static let columnNotFound = Kind(rawValue: "columnNotFound")
        /// An argument was given for a parameter the statement does not have, or a parameter has no argument.
        public static let invalidArguments = Kind(rawValue: "invalidArguments")
        /// Encryption was requested from a build that links plain SQLite.
        public static let encryptionUnavailable = Kind(rawValue: "encryptionUnavailable")
        /// No configured key opens the encrypted database.
        public static let wrongKey = Kind(rawValue: "wrongKey")

        /// Matches a `DatabaseError` of this kind.
        public static func ~= (pattern: Kind, error: any Error) -> Bool {
            (error as? DatabaseError)?.kind == pattern
        }
    }

    /// The library-level kind of failure.
    public var kind: Kind
    /// SQLite's extended result code, when SQLite reported the failure.
    public var extendedResultCode: ResultCode?
    /// A description of the failure: SQLite's message, or the library's.
    public var message: String
    /// The SQL that failed, if any. Bound values are never included.
    public var sql: String?
    /// The column involved in a decoding or encoding failure, if any.
    public var column: String?
    /// The five-character SQLSTATE a PostgreSQL server reported (`23505`, `40001`, …), if any.
    public var sqlState: String?

    /// SQLite's primary result code, when SQLite reported the failure.
    public var resultCode: ResultCode? { extendedResultCode?.primary }

    public init(
        kind: Kind,
        extendedResultCode: ResultCode? = nil,
        message: String,
        sql: String? = nil,
        column: String? = nil,
        sqlState: String? = nil
    ) {
        self.kind = kind
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
        self.column = column
        self.sqlState = sqlState
    }

    public var description: String {
        var text = "DatabaseError.\(kind)"
        if let extendedResultCode { text += " [SQLite \(extendedResultCode)]" }
        if let sqlState { text += " [SQLSTATE \(sqlState)]" }
        text += ": \(message)"
        if let column { text += " (column \"\(column)\")" }
        if let sql { text += " — SQL: \(sql)" }
        return text
    }
}

extension DatabaseError {
    static func misuse(_ message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(kind: .misuse, message: message, sql: sql)
    }

    @usableFromInline
    static func decoding(column: String, expected: String, found: DatabaseValue) -> DatabaseError {
        let message = found.isNull
            ? "unexpected NULL for non-optional \(expected)"
            : "expected \(expected), found \(found.storageClass)"
        return DatabaseError(kind: .decoding, message: message, column: column)
    }

    static func encoding(_ message: String, column: String? = nil) -> DatabaseError {
        DatabaseError(kind: .encoding, message: message, column: column)
    }
}
