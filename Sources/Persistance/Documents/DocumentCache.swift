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
        events.removeAll()
    }

    /// Takes back the changes of `earlier`, a copy taken before `markSaved()` whose save
    /// failed, so that the next save writes them together with the changes made since.
    mutating func restoreUnsaved(_ earlier: DocumentCache) {
        removesAllStored = removesAllStored || earlier.removesAllStored
        touched.formUnion(earlier.touched)
        added.formUnion(earlier.added)
        events = earlier.events + events
    }

    /// Writes the cached changes through `stored`, announcing the cached events with them.
    func save(to stored: inout StoredDocuments) throws {
        if removesAllStored { _ = try stored.removeAll() }
        for id in order where touched.contains(id) {
            guard let document = byID[id] else { continue }
            if added.contains(id) { try stored.insert(document) } else { try stored.save(document) }
        }
        let removed = touched.filter { byID[$0] == nil && !added.contains($0) }
        try stored.remove(ids: removed.sorted())
        for event in events { stored.announce(event) }
    }
}
