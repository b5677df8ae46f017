import Foundation

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
        let keyed = documents.map { document in (document, sort.map { $0.path.value(in: document) ?? .null }) }
        return keyed.enumerated().sorted { left, right in
            switch order(left.element.1, right.element.1, by: sort) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: left.offset < right.offset
            }
        }.map(\.element.0)
    }

    /// How two documents' sort values (one per key of `sort`) order under `sort`.
    static func order(_ left: [JSONValue], _ right: [JSONValue], by sort: [DocumentSort]) -> ComparisonResult {
        for (key, (leftValue, rightValue)) in zip(sort, zip(left, right)) {
            if leftValue.sortsBefore(rightValue) { return key.ascending ? .orderedAscending : .orderedDescending }
            if rightValue.sortsBefore(leftValue) { return key.ascending ? .orderedDescending : .orderedAscending }
        }
        return .orderedSame
    }
}
