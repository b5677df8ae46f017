extension DatabaseError.Kind {
    /// A full-text index declaration is inconsistent (no columns, a column its table does
    /// not declare, a table without row ids), or the engine has no full-text module.
    public static let invalidFullTextIndex = DatabaseError.Kind(rawValue: "invalidFullTextIndex")
}

extension DatabaseError {
    static func invalidFullTextIndex(_ name: String, _ problem: String) -> DatabaseError {
        DatabaseError(kind: .invalidFullTextIndex, message: "full-text index \"\(name)\": \(problem)")
    }
}
