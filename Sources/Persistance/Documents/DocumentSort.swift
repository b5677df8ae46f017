/// One key of a document sort order: `DocumentField("age").descending`. Several keys sort
/// by the first, then the next for ties; documents still tied keep their insertion order.
/// Values sort by type first (missing and null, booleans, numbers, strings, arrays,
/// objects), then by value.
public struct DocumentSort: Sendable, Hashable {
    /// The field sorted on.
    public let path: DocumentPath
    /// Whether smaller values come first.
    public let ascending: Bool

    /// Sorts on `path`, ascending unless told otherwise.
    public init(_ path: DocumentPath, ascending: Bool = true) {
        self.path = path
        self.ascending = ascending
    }

    /// `documents` ordered by `sort` (stable: ties keep their order).
    static func sorted(_ documents: [Document], by sort: [DocumentSort]) -> [Document] {
        guard !sort.isEmpty else { return documents }
        return documents.enumerated().sorted { left, right in
            for key in sort {
                let leftValue = key.path.value(in: left.element) ?? .null
                let rightValue = key.path.value(in: right.element) ?? .null
                if leftValue.sortsBefore(rightValue) { return key.ascending }
                if rightValue.sortsBefore(leftValue) { return !key.ascending }
            }
            return left.offset < right.offset
        }.map(\.element)
    }
}
