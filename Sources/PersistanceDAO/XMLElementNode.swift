/// One element of a module file as read, before it is checked: its name, attributes in
/// document order, content, and where it starts.
struct XMLElementNode: Sendable {
    /// A piece of an element's content.
    enum Content: Sendable {
        case text(String, DAOSourceLocation)
        case element(XMLElementNode)
    }

    var name: String
    var attributes: [(name: String, value: String)]
    var children: [Content]
    var location: DAOSourceLocation

    /// The value of the attribute `name`, if present.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements, without text.
    var elements: [XMLElementNode] {
        children.compactMap { content -> XMLElementNode? in
            guard case .element(let element) = content else { return nil }
            return element
        }
    }

    /// Whether the content has text other than whitespace.
    var hasText: Bool {
        children.contains { content in
            guard case .text(let text, _) = content else { return false }
            return !text.allSatisfy(\.isWhitespace)
        }
    }
}
