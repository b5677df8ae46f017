extension DatabaseError.Kind {
    /// A table declaration is inconsistent (no columns, a duplicate name, an index on an
    /// unknown column, …); every operation of the table throws it.
    public static let invalidTable = DatabaseError.Kind(rawValue: "invalidTable")
    /// A record was updated, deleted or identified without a primary key value.
    public static let missingPrimaryKey = DatabaseError.Kind(rawValue: "missingPrimaryKey")
    /// A table's validation hook rejected a record. Throw it from your own hooks.
    public static let validation = DatabaseError.Kind(rawValue: "validation")
}

extension DatabaseError {
    /// A validation failure, for a table's validation hook to throw.
    public static func validation(_ message: String, column: String? = nil) -> DatabaseError {
        DatabaseError(kind: .validation, message: message, column: column)
    }
}
