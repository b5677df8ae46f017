extension DatabaseError.Kind {
    /// A document cannot be stored or read: a value that is not JSON-compatible, a
    /// document that is not an object, malformed stored JSON, or `update` without an `Id`.
    public static let invalidDocument = DatabaseError.Kind(rawValue: "invalidDocument")
    /// A document predicate cannot be evaluated: it orders values that have no order
    /// (booleans, arrays, objects, null), matches text against a non-string, or names an
    /// empty field path.
    public static let invalidPredicate = DatabaseError.Kind(rawValue: "invalidPredicate")
}
