/// A field of a document, named by its path, to build predicates and sort orders with:
/// `DocumentField("address.city") == "Paris"`, `DocumentField("age").in([30, 31])`,
/// `DocumentField("url") == url` (any `JSONValueConvertible` variable).
public struct DocumentField: Sendable, Hashable {
    /// Where the field sits.
    public let path: DocumentPath

    /// The field at `path` (dotted: `"address.city"`, or `DocumentPath(components:)` for keys with dots).
    public init(_ path: DocumentPath) {
        self.path = path
    }

    /// The field is one of `values`.
    public func `in`(_ values: [JSONValue]) -> DocumentPredicate { .isIn(path, values) }
    /// The field is one of `values`.
    public func `in`<Value: JSONValueConvertible>(_ values: [Value]) -> DocumentPredicate { .isIn(path, values.map(\.jsonValue)) }
    /// The field is missing or null.
    public var isNil: DocumentPredicate { .isNil(path) }
    /// The string field holds `text`, or the array field holds the string `text`.
    public func contains(_ text: String) -> DocumentPredicate { .text(path, .contains, text) }
    /// The string field begins with `prefix`.
    public func beginsWith(_ prefix: String) -> DocumentPredicate { .text(path, .beginsWith, prefix) }
    /// The string field ends with `suffix`.
    public func endsWith(_ suffix: String) -> DocumentPredicate { .text(path, .endsWith, suffix) }
    /// The string field matches `pattern` as NSPredicate's `LIKE` does: `*` matches any run
    /// of characters, `?` exactly one, `\` makes the next character literal, and the whole
    /// string must match. Case-sensitive, unless `caseInsensitive` (NSPredicate's `LIKE[c]`).
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> DocumentPredicate {
        .text(path, caseInsensitive ? .likeCaseInsensitive : .like, pattern)
    }
    /// Ascending order on this field.
    public var ascending: DocumentSort { DocumentSort(path, ascending: true) }
    /// Descending order on this field.
    public var descending: DocumentSort { DocumentSort(path, ascending: false) }

    public static func == (field: DocumentField, value: JSONValue) -> DocumentPredicate { .compare(field.path, .equal, value) }
    public static func != (field: DocumentField, value: JSONValue) -> DocumentPredicate { .compare(field.path, .notEqual, value) }
    public static func < (field: DocumentField, value: JSONValue) -> DocumentPredicate { .compare(field.path, .less, value) }
    public static func <= (field: DocumentField, value: JSONValue) -> DocumentPredicate { .compare(field.path, .lessOrEqual, value) }
    public static func > (field: DocumentField, value: JSONValue) -> DocumentPredicate { .compare(field.path, .greater, value) }
    public static func >= (field: DocumentField, value: JSONValue) -> DocumentPredicate { .compare(field.path, .greaterOrEqual, value) }

    public static func == (field: DocumentField, value: some JSONValueConvertible) -> DocumentPredicate {
        .compare(field.path, .equal, value.jsonValue)
    }
    public static func != (field: DocumentField, value: some JSONValueConvertible) -> DocumentPredicate {
        .compare(field.path, .notEqual, value.jsonValue)
    }
    public static func < (field: DocumentField, value: some JSONValueConvertible) -> DocumentPredicate {
        .compare(field.path, .less, value.jsonValue)
    }
    public static func <= (field: DocumentField, value: some JSONValueConvertible) -> DocumentPredicate {
        .compare(field.path, .lessOrEqual, value.jsonValue)
    }
    public static func > (field: DocumentField, value: some JSONValueConvertible) -> DocumentPredicate {
        .compare(field.path, .greater, value.jsonValue)
    }
    public static func >= (field: DocumentField, value: some JSONValueConvertible) -> DocumentPredicate {
        .compare(field.path, .greaterOrEqual, value.jsonValue)
    }
}
