extension DatabaseError.Kind {
    /// A query cannot be turned into SQL: an identifier with a NUL character, an invalid
    /// function name, a negative limit, `having` without `group(by:)`, deleting or updating
    /// through a grouped or distinct query, or two different values for one named parameter.
    public static let invalidQuery = Self(rawValue: "invalidQuery")
}

extension DatabaseError {
    static func invalidQuery(_ message: String, sql: String? = nil) -> DatabaseError {
        DatabaseError(kind: .invalidQuery, message: message, sql: sql)
    }
}
