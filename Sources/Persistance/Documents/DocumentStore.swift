/// Where a collection's operations read and write: the database, through a write
/// connection (`StoredDocuments`), or the write-back cache (`DocumentCache`). Each
/// operation is written once, against this protocol.
protocol DocumentStore {
    /// The documents satisfying `predicate` (all when nil), ordered by `sort`, then by
    /// insertion order.
    func documents(matching predicate: DocumentPredicate?, sort: [DocumentSort]) throws -> [Document]
    /// How many documents satisfy `predicate` (all when nil).
    func count(matching predicate: DocumentPredicate?) throws -> Int
    /// Adds a document with a new `Id`.
    mutating func insert(_ document: Document) throws
    /// Replaces the document with the same `Id`.
    mutating func replace(_ document: Document) throws
    /// Removes the documents with these ids.
    mutating func remove(ids: [String]) throws
    /// Removes every document; returns how many there were.
    mutating func removeAll() throws -> Int
    /// Announces `event` once the change is stored for good.
    mutating func announce(_ event: DocumentEvent)
}

extension DocumentStore {
    /// The documents satisfying `predicate` (all when nil), in insertion order.
    func documents(matching predicate: DocumentPredicate?) throws -> [Document] {
        try documents(matching: predicate, sort: [])
    }
}
