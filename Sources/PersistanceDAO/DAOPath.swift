import Foundation

/// A chain access: an argument name followed by property names, `model.author.name`.
struct DAOPath: Sendable, Hashable, CustomStringConvertible {
    var root: String
    var members: [String]

    /// Parses `a.b.c`; nil when a part is not an identifier.
    init?(parsing text: Substring) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map {
            String($0.trimmingCharacters(in: .whitespaces))
        }
        guard let first = parts.first, parts.allSatisfy(Self.isIdentifier) else { return nil }
        root = first
        members = Array(parts.dropFirst())
    }

    init(root: String, members: [String]) {
        self.root = root
        self.members = members
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    var description: String { ([root] + members).joined(separator: ".") }
}
