import Foundation

/// A document collection's operations, run synchronously on one store: inside a
/// transaction of yours, beside table writes (`collection.on(connection)`), and underneath
/// every `DocumentCollection` method. Each operation is the one of the same name on
/// ``DocumentCollection``, with the same validation and errors.
///
/// ```swift
/// try await db.write { conn in
///     try conn.execute("UPDATE account SET balance = balance - 10 WHERE id = 1")
///     try users.on(conn).update(["credit": 10], where: DocumentField("account") == 1)
/// }   // both commit together, or neither; events come after the commit
/// ```
///
/// On a connection the operations write in that connection's transaction: they commit or
/// roll back with it (savepoints included), and their events are announced only once it
/// commits — never when it rolls back. Writes need the connection of a write block;
/// queries work on any. Use the value only inside the block that gave the connection.
public final class DocumentOperations {
    /// Where the operations read and write: the database through a connection, or a
    /// caching handle's write-back cache.
    private(set) var store: any DocumentStore

    init(store: any DocumentStore) {
        self.store = store
    }

    /// Adds `document`, giving it a new `Id` and an `update` stamp (replacing any it had),
    /// and returns it as stored.
    /// - Throws: `DatabaseError.Kind.notJSONCompatible` for a non-finite number;
    ///   `.documentTooDeep` for one nested deeper than ``DocumentCollection/maximumDepth``.
    @discardableResult
    public func add(_ document: Document) throws -> Document {
        try add(contentsOf: [document])[0]
    }

    /// Adds `documents` (all or none), each with a new `Id` and an `update` stamp, and
    /// returns them as stored.
    /// - Throws: as `add(_:)`, before writing anything.
    @discardableResult
    public func add(contentsOf documents: [Document]) throws -> [Document] {
        let stamped = try Self.stampedAsNew(documents)
        for document in stamped { try store.insert(document) }
        if !stamped.isEmpty { store.announce(.added(stamped)) }
        return stamped
    }

    /// Adds an `Encodable` value, encoded as a JSON object (a `Date` as seconds since 1970,
    /// `Data` as base64 text), and returns it as stored.
    /// - Throws: `DatabaseError.Kind.invalidDocument` when it does not encode to an object;
    ///   otherwise as `add(_:)`.
    @discardableResult
    public func add(_ value: some Encodable) throws -> Document {
        try add(JSONValue.document(encoding: value))
    }

    /// Merges `document`'s values into the stored document with the same `Id` and stamps it;
    /// returns false when there is no such document.
    /// - Throws: `DatabaseError.Kind.missingDocumentID` when `document` has no string `Id`.
    @discardableResult
    public func update(_ document: Document) throws -> Bool {
        try update(document, where: .id(Self.requireID(of: document)))
    }

    /// Merges `values` (top-level keys replace the stored ones; `Id` is kept) into every
    /// document matching `predicate`; returns false when none matches.
    @discardableResult
    public func update(_ values: Document, where predicate: DocumentPredicate) throws -> Bool {
        try Self.validate(values)
        try predicate.validate()
        return try !merge(values, where: predicate).isEmpty
    }

    /// Updates the documents matching `predicate` like `update(_:where:)`, or adds `values`
    /// as a new document when none matches (always when `predicate` is nil); returns the
    /// documents written.
    @discardableResult
    public func createOrUpdate(_ values: Document, where predicate: DocumentPredicate?) throws -> [Document] {
        try Self.validate(values)
        try predicate?.validate()
        if let predicate {
            let updated = try merge(values, where: predicate)
            if !updated.isEmpty { return updated }
        }
        return try add(contentsOf: [values])
    }

    /// Removes the document with `document`'s `Id`; returns false when there is none.
    /// - Throws: `DatabaseError.Kind.missingDocumentID` when `document` has no string `Id`.
    @discardableResult
    public func remove(_ document: Document) throws -> Bool {
        try remove(where: .id(Self.requireID(of: document)))
    }

    /// Removes every document matching `predicate`, announcing them as they were; returns
    /// false when none matches.
    @discardableResult
    public func remove(where predicate: DocumentPredicate) throws -> Bool {
        try !removeDocuments(where: predicate).isEmpty
    }

    /// Removes every document matching `predicate`, announcing them as they were, and returns them.
    func removeDocuments(where predicate: DocumentPredicate) throws -> [Document] {
        try predicate.validate()
        let removed = try store.documents(matching: predicate)
        guard !removed.isEmpty else { return [] }
        try store.remove(ids: removed.map(DocumentCollection.id(of:)))
        store.announce(.removed(removed))
        return removed
    }

    /// Stores `document` under its `Id` with a new `update` stamp, replacing the document with
    /// that `Id` or adding it when there is none, and returns it as stored: the portable
    /// collections' `save(_:)` on a write-back cache.
    func save(_ document: Document) throws -> Document {
        let stamped = try Self.stampedUpdate(document)
        if try store.count(matching: .id(DocumentCollection.id(of: stamped))) > 0 {
            try store.replace(stamped)
            store.announce(.updated([stamped]))
        } else {
            try store.insert(stamped)
            store.announce(.added([stamped]))
        }
        return stamped
    }

    /// Replaces the document with `document`'s `Id` by `document`, with a new `update` stamp;
    /// false when there is none: the portable collections' `replace(_:)` on a write-back cache.
    func replace(_ document: Document) throws -> Bool {
        let stamped = try Self.stampedUpdate(document)
        guard try store.count(matching: .id(DocumentCollection.id(of: stamped))) > 0 else { return false }
        try store.replace(stamped)
        store.announce(.updated([stamped]))
        return true
    }

    /// Removes every document of the collection; returns how many there were.
    @discardableResult
    public func removeAll() throws -> Int {
        let count = try store.removeAll()
        if count > 0 { store.announce(.removedAll) }
        return count
    }

    /// The documents matching `predicate` (all when nil), ordered by `sort` (then by
    /// insertion order).
    public func query(where predicate: DocumentPredicate?, sort: [DocumentSort] = []) throws -> [Document] {
        try predicate?.validate()
        try sort.forEach { try $0.path.validate() }
        return try store.documents(matching: predicate, sort: sort)
    }

    /// The documents matching `predicate`, decoded as `type` (a `Date` from seconds since
    /// 1970, `Data` from base64 text).
    public func query<T: Decodable>(_ type: T.Type, where predicate: DocumentPredicate?, sort: [DocumentSort] = []) throws -> [T] {
        try query(where: predicate, sort: sort).map { try JSONValue.decode(type, from: $0) }
    }

    /// The number of documents matching `predicate` (all when nil).
    public func count(where predicate: DocumentPredicate? = nil) throws -> Int {
        try predicate?.validate()
        return try store.count(matching: predicate)
    }

    private func merge(_ values: Document, where predicate: DocumentPredicate) throws -> [Document] {
        let now = JSONValue.double(Date().timeIntervalSince1970)
        let updated = try store.documents(matching: predicate).map { document in
            var merged = document.merging(values) { _, new in new }
            merged[DocumentCollection.idKey] = document[DocumentCollection.idKey]
            merged[DocumentCollection.updateKey] = now
            return merged
        }
        for document in updated { try store.replace(document) }
        if !updated.isEmpty { store.announce(.updated(updated)) }
        return updated
    }

    /// `documents` as they are added: validated (all before any is written), each with a new
    /// `Id` and an `update` stamp.
    static func stampedAsNew(_ documents: [Document]) throws -> [Document] {
        try documents.forEach(Self.validate)
        let now = JSONValue.double(Date().timeIntervalSince1970)
        return documents.map { document in
            var document = document
            document[DocumentCollection.idKey] = .string(DocumentIdentifier.make())
            document[DocumentCollection.updateKey] = now
            return document
        }
    }

    /// `document`, validated, with its `Id` checked and a new `update` stamp: as it is
    /// stored by a portable `save(_:)` or `replace(_:)`.
    static func stampedUpdate(_ document: Document) throws -> Document {
        _ = try requireID(of: document)
        try validate(document)
        var stamped = document
        stamped[DocumentCollection.updateKey] = .double(Date().timeIntervalSince1970)
        return stamped
    }

    static func requireID(of document: Document) throws -> String {
        guard let id = document[DocumentCollection.idKey]?.stringValue else {
            throw DatabaseError(
                kind: .missingDocumentID, message: "the document has no string \(DocumentCollection.idKey): add it first")
        }
        return id
    }

    /// Throws for what cannot be stored and read back: a non-finite number, or nesting
    /// deeper than `DocumentCollection.maximumDepth` (checked without recursion).
    static func validate(_ document: Document) throws {
        try JSONValue.object(document).validate(depth: 1, at: "")
    }
}
