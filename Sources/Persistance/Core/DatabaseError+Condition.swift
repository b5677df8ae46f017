extension DatabaseError {
    /// A failure that means the same on every engine, derived from SQLite's extended result
    /// code or from a PostgreSQL SQLSTATE, so that `catch` code works on both:
    ///
    /// ```swift
    /// catch DatabaseError.Condition.uniqueViolation { … }
    /// catch let error as DatabaseError where error.condition == .transactionConflict { … }
    /// ```
    public struct Condition: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A UNIQUE or PRIMARY KEY constraint failed (SQLite constraint unique / primary key, SQLSTATE 23505).
        public static let uniqueViolation = Condition(rawValue: "uniqueViolation")
        /// A NOT NULL constraint failed (SQLite constraint not null, SQLSTATE 23502).
        public static let notNullViolation = Condition(rawValue: "notNullViolation")
        /// A FOREIGN KEY constraint failed (SQLite constraint foreign key, SQLSTATE 23503).
        public static let foreignKeyViolation = Condition(rawValue: "foreignKeyViolation")
        /// A CHECK constraint failed (SQLite constraint check, SQLSTATE 23514).
        public static let checkViolation = Condition(rawValue: "checkViolation")
        /// The transaction lost to a concurrent one and may succeed if run again: SQLite busy or
        /// locked, a serialization failure (SQLSTATE 40001) or a deadlock (SQLSTATE 40P01).
        public static let transactionConflict = Condition(rawValue: "transactionConflict")

        /// Matches a `DatabaseError` with this condition.
        public static func ~= (pattern: Condition, error: any Error) -> Bool {
            (error as? DatabaseError)?.condition == pattern
        }
    }

    /// The engine-independent meaning of this failure, when it has one.
    public var condition: Condition? {
        if let sqlState {
            return switch sqlState {
            case "23505": .uniqueViolation
            case "23502": .notNullViolation
            case "23503": .foreignKeyViolation
            case "23514": .checkViolation
            case "40001", "40P01": .transactionConflict
            default: nil
            }
        }
        guard let extendedResultCode else { return nil }
        switch extendedResultCode {
        case .constraintUnique, .constraintPrimaryKey: return .uniqueViolation
        case .constraintNotNull: return .notNullViolation
        case .constraintForeignKey: return .foreignKeyViolation
        case .constraintCheck: return .checkViolation
        default: break
        }
        switch extendedResultCode.primary {
        case .busy, .locked: return .transactionConflict
        default: return nil
        }
    }
}
