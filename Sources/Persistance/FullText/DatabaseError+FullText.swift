extension DatabaseError.Kind {
    /// A full-text index declaration is inconsistent (no columns, a column its table does
    /// not declare, a table without row ids), or the engine has no full-text module.
    public static let invalidFullTextIndex = DatabaseError.Kind(rawValue: "invalidFullTextIndex")
    /// A ranked search asks for more words than the engine can rank in one search: FTS4 (the
    /// `SQLCipher` build) ranks at most 4,000 distinct words joined by `anyWord`.
    public static let fullTextQueryTooLarge = DatabaseError.Kind(rawValue: "fullTextQueryTooLarge")
}

extension DatabaseError {
    static func invalidFullTextIndex(_ name: String, _ problem: String) -> DatabaseError {
        DatabaseError(kind: .invalidFullTextIndex, message: "full-text index \"\(name)\": \(problem)")
    }

    static func fullTextQueryTooLarge(index name: String, limit: Int) -> DatabaseError {
        DatabaseError(
            kind: .fullTextQueryTooLarge,
            message: "full-text index \"\(name)\": this engine (FTS4) ranks at most \(limit) distinct words "
                + "joined by anyWord in one search; filter with matches(_:), which takes any number")
    }
}
