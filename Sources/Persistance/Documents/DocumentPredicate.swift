/// A condition on documents, built from `DocumentField`s and combined with `&&`, `||` and `!`:
///
/// ```swift
/// let adultsInParis = DocumentField("age") >= 18 && DocumentField("address.city") == "Paris"
/// let named = DocumentField("name").beginsWith("A") || DocumentField("name").isNil
/// ```
///
/// A field that is missing reads as null. Comparisons match numbers with numbers (integers
/// and decimals alike) and strings with strings; a document whose field holds another type
/// does not match. Predicates run inside SQLite where the engine has the JSON functions, and
/// in Swift otherwise (SQLite 3.15, the write-back cache), with the same results.
public indirect enum DocumentPredicate: Sendable {
    /// How `compare` compares.
    public enum Comparison: String, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// How `text` matches.
    public enum TextMatch: String, Sendable {
        /// The string holds the text, or the array holds the string.
        case contains
        case beginsWith
        case endsWith
        /// NSPredicate's `LIKE`: the whole string matches a pattern where `*` matches any
        /// run of characters, `?` one character and `\` makes the next one literal;
        /// case-sensitive.
        case like
        /// NSPredicate's `LIKE[c]`: `like`, with characters compared lowercased.
        case likeCaseInsensitive
    }

    case compare(DocumentPath, Comparison, JSONValue)
    case isIn(DocumentPath, [JSONValue])
    /// The field is missing or null.
    case isNil(DocumentPath)
    case text(DocumentPath, TextMatch, String)
    case and([DocumentPredicate])
    case or([DocumentPredicate])
    case not(DocumentPredicate)

    /// Throws `DatabaseError.Kind.invalidPredicate` for a condition that can never be
    /// evaluated: an ordering comparison with a value that has no order (null, a boolean,
    /// an array, an object), or an empty field path; `DatabaseError.Kind.documentTooDeep`
    /// for an operand nested deeper than ``DocumentCollection/maximumDepth`` (no stored
    /// document can equal it).
    public func validate() throws {
        switch self {
        case .compare(let path, let comparison, let value):
            try path.validate()
            try value.validate(depth: 1, at: "\(path)", requiringFinite: false)
            if ![.equal, .notEqual].contains(comparison), !(value.isNumber || value.stringValue != nil) {
                throw DatabaseError(
                    kind: .invalidPredicate,
                    message: "\(path) \(comparison.rawValue) \(value.serialized()): only numbers and strings are ordered")
            }
        case .isIn(let path, let values):
            try path.validate()
            for value in values { try value.validate(depth: 1, at: "\(path)", requiringFinite: false) }
        case .isNil(let path), .text(let path, _, _):
            try path.validate()
        case .and(let predicates), .or(let predicates):
            try predicates.forEach { try $0.validate() }
        case .not(let predicate):
            try predicate.validate()
        }
    }

    /// Whether `document` satisfies the predicate (which must be valid).
    public func matches(_ document: Document) -> Bool {
        switch self {
        case .compare(let path, let comparison, let operand):
            return Self.compare(path.value(in: document) ?? .null, comparison, operand)
        case .isIn(let path, let candidates):
            let value = path.value(in: document) ?? .null
            return candidates.contains { value.matches($0) }
        case .isNil(let path):
            return (path.value(in: document) ?? .null) == .null
        case .text(let path, let match, let text):
            return path.value(in: document).map { Self.text($0, match, text) } ?? false
        case .and(let predicates):
            return predicates.allSatisfy { $0.matches(document) }
        case .or(let predicates):
            return predicates.contains { $0.matches(document) }
        case .not(let predicate):
            return !predicate.matches(document)
        }
    }

    private static func compare(_ value: JSONValue, _ comparison: Comparison, _ operand: JSONValue) -> Bool {
        switch comparison {
        case .equal: return value.matches(operand)
        case .notEqual: return !value.matches(operand)
        default:
            guard let order = value.compared(to: operand) else { return false }
            switch comparison {
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        }
    }

    private static func text(_ value: JSONValue, _ match: TextMatch, _ text: String) -> Bool {
        if case .array(let elements) = value, match == .contains {
            return elements.contains(.string(text))
        }
        guard let string = value.stringValue else { return false }
        switch match {
        case .contains: return text.isEmpty || string.contains(text)
        case .beginsWith: return string.hasPrefix(text)
        case .endsWith: return string.hasSuffix(text)
        case .like: return LikePattern(text, caseInsensitive: false).matches(string)
        case .likeCaseInsensitive: return LikePattern(text, caseInsensitive: true).matches(string)
        }
    }

    /// Either predicate.
    public static func || (left: DocumentPredicate, right: DocumentPredicate) -> DocumentPredicate {
        .or([left, right])
    }

    /// Both predicates.
    public static func && (left: DocumentPredicate, right: DocumentPredicate) -> DocumentPredicate {
        .and([left, right])
    }

    /// The opposite predicate.
    public static prefix func ! (predicate: DocumentPredicate) -> DocumentPredicate {
        .not(predicate)
    }

    /// The predicate that matches the document whose `Id` is `id`.
    static func id(_ id: String) -> DocumentPredicate {
        .compare(DocumentPath(components: [DocumentCollection.idKey]), .equal, .string(id))
    }

    /// The `Id` the predicate requires, when it is exactly `Id == "…"` (looked up by index).
    var requiredID: String? {
        if case .compare(let path, .equal, .string(let id)) = self, path.components == [DocumentCollection.idKey] {
            return id
        }
        return nil
    }
}
