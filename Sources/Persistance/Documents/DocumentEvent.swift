import Foundation

/// A change to a document collection, announced after the transaction that made it commits
/// (or, while the collection caches, when `save()` writes it).
public enum DocumentEvent: Sendable, Hashable {
    /// Documents were added, as stored (with `Id` and `update`).
    case added([Document])
    /// Documents were updated; each as it now is.
    case updated([Document])
    /// Documents were removed; each as it was when removed.
    case removed([Document])
    /// Every document of the collection was removed.
    case removedAll

    /// The ids of the documents the event is about (none for `removedAll`).
    public var ids: [String] {
        switch self {
        case .added(let documents), .updated(let documents), .removed(let documents):
            documents.compactMap { $0[DocumentCollection.idKey]?.stringValue }
        case .removedAll: []
        }
    }

    /// The documents the event carries: added, updated or removed ones (none for
    /// `removedAll`).
    public var documents: [Document] {
        switch self {
        case .added(let documents), .updated(let documents), .removed(let documents): documents
        case .removedAll: []
        }
    }

    /// The suffix of the `NotificationCenter` name the event is posted under.
    var notificationSuffix: String {
        switch self {
        case .added: "ADD"
        case .updated: "UPDATE"
        case .removed: "REMOVE"
        case .removedAll: "REMOVEALL"
        }
    }
}

/// A `DocumentEvent` of one collection, attached to the transaction that made it.
struct CollectionEvent: Sendable {
    let collection: String
    let event: DocumentEvent
}
