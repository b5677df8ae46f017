/// Where a value sits in a document: object keys from the top down; a component that is a
/// number also indexes arrays. Written as a dotted string (`"address.city"`), or as
/// components when a key itself holds a dot.
public struct DocumentPath: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The keys, from the top-level one down.
    public let components: [String]

    /// The path `components` (keys may hold any character, dots included).
    public init(components: [String]) {
        self.components = components
    }

    /// The path written as keys separated by dots: `"address.city"`.
    public init(_ dotted: String) {
        components = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { components.joined(separator: ".") }

    /// Throws unless every component is a non-empty key.
    func validate() throws {
        guard !components.isEmpty, !components.contains(where: \.isEmpty) else {
            throw DatabaseError(kind: .invalidPredicate, message: "a field path needs non-empty keys: \"\(self)\"")
        }
    }

    /// The value at this path in `document`; nil when any step is missing.
    func value(in document: Document) -> JSONValue? {
        guard let first = components.first, var value = document[first] else { return nil }
        for component in components.dropFirst() {
            switch value {
            case .object(let members):
                guard let member = members[component] else { return nil }
                value = member
            case .array(let elements):
                guard let index = Int(component), elements.indices.contains(index) else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }
}
