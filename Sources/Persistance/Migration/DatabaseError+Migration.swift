extension DatabaseError.Kind {
    /// A migration step threw; the error names the version, and the database stays at the
    /// last version that migrated successfully.
    public static let migrationFailed = DatabaseError.Kind(rawValue: "migrationFailed")
    /// The database's stored schema version is not one of the migrator's versions, or a
    /// version asked for is not.
    public static let unknownSchemaVersion = DatabaseError.Kind(rawValue: "unknownSchemaVersion")
}

extension DatabaseError {
    /// A `.migrationFailed` error for the step of `version`, keeping the result code, SQL and
    /// column of the error the step threw.
    static func migrationFailed(_ description: String, underlying: any Error) -> DatabaseError {
        let cause = underlying as? DatabaseError
        return DatabaseError(
            kind: .migrationFailed, extendedResultCode: cause?.extendedResultCode,
            message: "\(description) failed: \(cause?.message ?? String(describing: underlying))",
            sql: cause?.sql, column: cause?.column)
    }

    static func unknownSchemaVersion(_ message: String) -> DatabaseError {
        DatabaseError(kind: .unknownSchemaVersion, message: message)
    }
}

extension DatabaseError.Kind {
    /// A migration helper was asked for a change the table cannot take: an unknown table or
    /// column, a name already taken, a column that a primary key, index, constraint or trigger
    /// uses. Nothing was changed.
    public static let invalidSchemaChange = DatabaseError.Kind(rawValue: "invalidSchemaChange")
}

extension DatabaseError {
    static func invalidSchemaChange(_ message: String) -> DatabaseError {
        DatabaseError(kind: .invalidSchemaChange, message: message)
    }
}
