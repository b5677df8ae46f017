/// A JSON value: what a document holds. Integers and floating-point numbers are kept
/// apart (and compare as numbers); objects keep their keys, in any order.
///
/// ```swift
/// let user: Document = ["name": "Ann", "age": 31, "address": ["city": "Paris"], "tags": ["a", "b"]]
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value at `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The value as a `Double` when it is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Whether the value is a number (`int` or `double`).
    var isNumber: Bool { doubleValue != nil }
}

/// A document: a JSON object. Stored documents carry `Id` (a UUID string) and `update`
/// (seconds since 1970), set by the collection.
public typealias Document = [String: JSONValue]

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
