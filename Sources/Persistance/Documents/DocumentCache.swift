/// A caching handle's write-back cache: every document of the collection as read when the
/// handle first wrote (SRPPlist kept its whole property list in memory the same way), with
/// the changes made since the last save, written by `save()` in one transaction.
struct DocumentCache: DocumentStore {
    /// Ids in insertion order (removed ones are skipped when read).
    private var order: [String]
    private var byID: [String: Document]
    /// Whether every stored document must be removed before the rest is written.
    private(set) var removesAllStored = false
    /// The ids added, updated or removed since the last save.
    private var touched = Set<String>()
    /// The ids added since the last save: not in the database, so `save()` inserts them.
    private var added = Set<String>()
    /// Stored ids removed and then added again since the last save: `save()` deletes the
    /// stored document before inserting the new one, at the end of the insertion order.
    private var readded = Set<String>()
    /// The events to announce when the changes are saved, in order.
    private(set) var events: [DocumentEvent] = []

    /// A cache holding `documents` (the stored ones, in insertion order).
    init(_ documents: [Document]) {
        order = documents.map(DocumentCollection.id(of:))
        byID = Dictionary(documents.map { (DocumentCollection.id(of: $0), $0) }, uniquingKeysWith: { _, last in last })
    }

    func documents(matching predicate: DocumentPredicate?, sort: [DocumentSort]) -> [Document] {
        if let id = predicate?.requiredID { return byID[id].map { [$0] } ?? [] }
        let found = order.compactMap { id in byID[id].flatMap { predicate?.matches($0) ?? true ? $0 : nil } }
        return DocumentSort.sorted(found, by: sort)
    }

    func count(matching predicate: DocumentPredicate?) -> Int {
        documents(matching: predicate, sort: []).count
    }

    mutating func insert(_ document: Document) {
        let id = DocumentCollection.id(of: document)
        if byID[id] == nil, touched.contains(id) {
            // Removed earlier (only a portable `save` adds a known id): it moves to the end.
            order.removeAll { $0 == id }
            if !added.contains(id) { readded.insert(id) }
        }
        order.append(id)
        byID[id] = document
        touched.insert(id)
        added.insert(id)
    }

    mutating func replace(_ document: Document) {
        let id = DocumentCollection.id(of: document)
        byID[id] = document
        touched.insert(id)
    }

    mutating func remove(ids: [String]) {
        for id in ids {
            byID[id] = nil
            touched.insert(id)
        }
    }

    mutating func removeAll() -> Int {
        let count = byID.count
        order.removeAll()
        byID.removeAll()
        touched.removeAll()
        added.removeAll()
        readded.removeAll()
        removesAllStored = true
        return count
    }

    mutating func announce(_ event: DocumentEvent) {
        events.append(event)
    }

    /// Whether there are changes `save(to:)` would write.
    var hasChanges: Bool {
        removesAllStored || !touched.isEmpty || !events.isEmpty
    }

    /// Forgets the changes (the documents stay): they have been handed to `save(to:)`.
    mutating func markSaved() {
        removesAllStored = false
        touched.removeAll()
        added.removeAll()
        readded.removeAll()
        events.removeAll()
    }

    /// Takes back the changes of `earlier`, a copy taken before `markSaved()` whose save
    /// failed, so that the next save writes them together with the changes made since.
    mutating func restoreUnsaved(_ earlier: DocumentCache) {
        removesAllStored = removesAllStored || earlier.removesAllStored
        touched.formUnion(earlier.touched)
        added.formUnion(earlier.added)
        readded.formUnion(earlier.readded)
        events = earlier.events + events
    }

    /// One of the writes that save the cached changes.
    enum Write {
        /// Remove every stored document of the collection.
        case removeAll
        /// Remove the stored documents with these ids.
        case remove([String])
        /// Insert a document the database does not hold.
        case insert(Document)
        /// Replace the stored document with the same `Id`, or insert it when there is none.
        case save(Document)
    }

    /// The writes that save the cached changes, in the order to make them: removals first,
    /// then the documents added or changed, in insertion order. Every save path (SQLite's
    /// `save(to:)`, the portable collection's) makes these, then announces ``events``.
    var writes: [Write] {
        var writes: [Write] = removesAllStored ? [.removeAll] : []
        let removed = touched.filter { (byID[$0] == nil && !added.contains($0)) || readded.contains($0) }
        if !removed.isEmpty { writes.append(.remove(removed.sorted())) }
        for id in order where touched.contains(id) {
            guard let document = byID[id] else { continue }
            writes.append(added.contains(id) || readded.contains(id) ? .insert(document) : .save(document))
        }
        return writes
    }

    /// Writes the cached changes through `stored`, announcing the cached events with them.
    func save(to stored: inout StoredDocuments) throws {
        for write in writes {
            switch write {
            case .removeAll: _ = try stored.removeAll()
            case .remove(let ids): try stored.remove(ids: ids)
            case .insert(let document): try stored.insert(document)
            case .save(let document): try stored.save(document)
            }
        }
        for event in events { stored.announce(event) }
    }
}
