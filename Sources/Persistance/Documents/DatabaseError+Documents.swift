extension DatabaseError.Kind {
    /// A document cannot be stored or read: a stored document that is not an object or
    /// whose JSON is malformed, or a `Codable` value that does not encode to an object.
    public static let invalidDocument = DatabaseError.Kind(rawValue: "invalidDocument")
    /// A value is not JSON-compatible: a non-finite number, or a Foundation value of a type
    /// JSON cannot hold (a dictionary with non-string keys, an `NSObject`, …).
    public static let notJSONCompatible = DatabaseError.Kind(rawValue: "notJSONCompatible")
    /// A document (or a predicate's operand) nests arrays and objects deeper than
    /// ``DocumentCollection/maximumDepth`` levels. Nothing was written.
    public static let documentTooDeep = DatabaseError.Kind(rawValue: "documentTooDeep")
    /// `update(_:)` or `remove(_:)` was given a document without a string `Id`: one that was
    /// never added, or lost its `Id`.
    public static let missingDocumentID = DatabaseError.Kind(rawValue: "missingDocumentID")
    /// `endCaching()` was called while the caching handle holds changes not yet saved: call
    /// `save()` or `discard()` first.
    public static let unsavedDocumentChanges = DatabaseError.Kind(rawValue: "unsavedDocumentChanges")
    /// A document predicate cannot be evaluated: it orders values that have no order
    /// (booleans, arrays, objects, null), matches text against a non-string, or names an
    /// empty field path.
    public static let invalidPredicate = DatabaseError.Kind(rawValue: "invalidPredicate")
}
