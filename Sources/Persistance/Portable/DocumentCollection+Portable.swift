import Foundation

/// A document collection inside a portable transaction: the document store on any engine,
/// with the same documents in the same order as ``DocumentCollection`` gives on SQLite.
///
/// ```swift
/// try await db.write { tx in
///     let users = tx.documents("users")
///     try await users.createTable()
///     let ann = try await users.add(["name": "Ann", "age": 31])
///     let adults = try await users.query(where: DocumentField("age") >= 18, sort: [DocumentField("name").ascending])
/// }
/// ```
///
/// The SQL comes from the transaction's ``DatabaseTransaction/documentDialect``; what the
/// engine cannot decide exactly as Swift does, Swift decides (see ``DocumentSQLDialect``).
/// Each change is announced as a ``DocumentEvent`` on ``AsyncDatabase/documentEvents(of:)``
/// once the transaction commits (never if it, or the savepoint it was made in, rolls back);
/// the writes go around any caching handle. ``AsyncDocumentCollection`` runs each operation in
/// a transaction of its own, or in a write-back cache.
public struct PortableDocumentCollection<Transaction: DatabaseTransaction> {
    /// The collection's name.
    public let name: String
    /// The transaction the operations run in.
    let transaction: Transaction

    private var dialect: any DocumentSQLDialect { transaction.documentDialect }

    /// Creates the documents table when it is missing, waiting for any other process's
    /// schema change first (``DatabaseTransaction/serializeSchemaChanges()``). Needs a write
    /// transaction; the table holds every collection, so once per database is enough.
    nonisolated(nonsending) public func createTable() async throws {
        try await transaction.serializeSchemaChanges()
        try await transaction.execute(dialect.createTableSQL, [])
    }

    /// Adds `document` with a new `Id` and an `update` stamp, and returns it as stored.
    /// - Throws: as ``DocumentOperations/add(_:)-(Document)``, before writing anything.
    @discardableResult
    nonisolated(nonsending) public func add(_ document: Document) async throws -> Document {
        try await add(contentsOf: [document])[0]
    }

    /// Adds `documents`, each with a new `Id` and an `update` stamp, and returns them as stored
    /// (one `added` event for them all).
    /// - Throws: as ``DocumentOperations/add(contentsOf:)``, before writing anything.
    @discardableResult
    nonisolated(nonsending) public func add(contentsOf documents: [Document]) async throws -> [Document] {
        let stamped = try DocumentOperations.stampedAsNew(documents)
        for document in stamped { try await insert(document) }
        if !stamped.isEmpty { try transaction.announceAfterCommit(.added(stamped), of: name) }
        return stamped
    }

    /// Stores `document` under its `Id` with a new `update` stamp: replaces the document with
    /// that `Id`, or adds it (at the end of the insertion order) when there is none. Returns
    /// it as stored (an `updated` event, or an `added` one).
    /// - Throws: `DatabaseError.Kind.missingDocumentID` when `document` has no string `Id`;
    ///   as ``add(_:)`` for what cannot be stored.
    @discardableResult
    nonisolated(nonsending) public func save(_ document: Document) async throws -> Document {
        let stamped = try DocumentOperations.stampedUpdate(document)
        if try await write(replacing: stamped) > 0 {
            try transaction.announceAfterCommit(.updated([stamped]), of: name)
        } else {
            try await insert(stamped)
            try transaction.announceAfterCommit(.added([stamped]), of: name)
        }
        return stamped
    }

    /// Replaces the stored document with `document`'s `Id` by `document`, with a new `update`
    /// stamp; returns false (writing nothing) when there is no such document.
    /// - Throws: as ``save(_:)``.
    @discardableResult
    nonisolated(nonsending) public func replace(_ document: Document) async throws -> Bool {
        let stamped = try DocumentOperations.stampedUpdate(document)
        guard try await write(replacing: stamped) > 0 else { return false }
        try transaction.announceAfterCommit(.updated([stamped]), of: name)
        return true
    }

    /// The document whose `Id` is `id`; nil when there is none.
    nonisolated(nonsending) public func document(withID id: String) async throws -> Document? {
        try await query(where: .id(id)).first
    }

    /// Removes the document whose `Id` is `id`; returns false when there is none.
    @discardableResult
    nonisolated(nonsending) public func remove(id: String) async throws -> Bool {
        try await remove(where: .id(id)) > 0
    }

    /// Removes every document matching `predicate`; returns how many there were. The
    /// `removed` event carries the documents as they were.
    @discardableResult
    nonisolated(nonsending) public func remove(where predicate: DocumentPredicate) async throws -> Int {
        var removed: [Document] = []
        for document in try await query(where: predicate) {
            if try await delete(ids: [DocumentCollection.id(of: document)]) > 0 { removed.append(document) }
        }
        if !removed.isEmpty { try transaction.announceAfterCommit(.removed(removed), of: name) }
        return removed.count
    }

    /// Removes every document of the collection; returns how many there were.
    @discardableResult
    nonisolated(nonsending) public func removeAll() async throws -> Int {
        let removed = try await transaction.execute(dialect.deleteAllSQL, [.text(name)])
        if removed > 0 { try transaction.announceAfterCommit(.removedAll, of: name) }
        return removed
    }

    /// The documents matching `predicate` (all when nil), ordered by `sort` then by insertion
    /// order, from the `offset`th on (from 0) and at most `limit` of them (all when nil).
    /// - Throws: as ``DocumentOperations/query(where:sort:)``; `DatabaseError.Kind.invalidQuery`
    ///   for a negative `limit` or `offset`.
    nonisolated(nonsending) public func query(
        where predicate: DocumentPredicate?, sort: [DocumentSort] = [], limit: Int? = nil, offset: Int = 0
    ) async throws -> [Document] {
        try predicate?.validate()
        try sort.forEach { try $0.path.validate() }
        guard limit ?? 0 >= 0, offset >= 0 else {
            throw DatabaseError.invalidQuery("a document query's limit and offset cannot be negative")
        }
        let query = DocumentQuery(
            documentsOf: name, matching: predicate, sort: sort, dialect: dialect, evaluatesInSQL: dialect.evaluatesPredicates)
        var found: [(position: Int64, document: Document)] = []
        try await transaction.forEachRow(query.sql, query.arguments) { row in
            let document = try query.parse(try row.value(at: 2, as: String.self), id: try row.value(at: 1, as: String.self))
            if query.includes(decided: try row.value(at: 3, as: Int64?.self), document) {
                found.append((try row.value(at: 0, as: Int64.self), document))
            }
        }
        // The engine cannot cut the rows: it leaves some to Swift to decide and to order.
        return Array(query.ordered(found).dropFirst(offset).prefix(limit ?? .max))
    }

    /// The number of documents matching `predicate` (all when nil).
    nonisolated(nonsending) public func count(where predicate: DocumentPredicate? = nil) async throws -> Int {
        try predicate?.validate()
        let query = DocumentQuery(countOf: name, matching: predicate, dialect: dialect, evaluatesInSQL: dialect.evaluatesPredicates)
        var count = 0
        try await transaction.forEachRow(query.sql, query.arguments) { row in
            let decided = try row.value(at: 0, as: Int64?.self)
            if decided == 1 {
                count += 1
            } else if let body = try row.value(at: 2, as: String?.self),
                query.includes(decided: decided, try query.parse(body, id: try row.value(at: 1, as: String.self)))
            {
                count += 1
            }
        }
        return count
    }

    /// Writes a caching handle's unsaved changes (``DocumentCache/writes``) and announces its
    /// events, in the order they were made, once the transaction commits.
    nonisolated(nonsending) func write(_ cache: DocumentCache) async throws {
        for step in cache.writes {
            switch step {
            case .removeAll: try await transaction.execute(dialect.deleteAllSQL, [.text(name)])
            case .remove(let ids): try await delete(ids: ids)
            case .insert(let document): try await insert(document)
            case .save(let document): if try await write(replacing: document) == 0 { try await insert(document) }
            }
        }
        for event in cache.events { try transaction.announceAfterCommit(event, of: name) }
    }

    /// Inserts `document` as it is.
    nonisolated(nonsending) private func insert(_ document: Document) async throws {
        let arguments: [DatabaseValue] = [
            .text(name), .text(DocumentCollection.id(of: document)), .text(JSONValue.object(document).serialized()),
        ]
        try await transaction.execute(dialect.insertSQL, arguments)
    }

    /// Deletes the documents with these ids; returns how many there were.
    @discardableResult
    nonisolated(nonsending) private func delete(ids: [String]) async throws -> Int {
        var deleted = 0
        for id in ids { deleted += try await transaction.execute(dialect.deleteSQL, [.text(name), .text(id)]) }
        return deleted
    }

    /// Writes `document` over the stored one with its `Id`; returns how many rows changed.
    nonisolated(nonsending) private func write(replacing document: Document) async throws -> Int {
        let arguments: [DatabaseValue] = [
            .text(JSONValue.object(document).serialized()), .text(name), .text(DocumentCollection.id(of: document)),
        ]
        return try await transaction.execute(dialect.replaceSQL, arguments)
    }
}

extension DatabaseTransaction {
    /// The document collection `name` (any string) in this transaction: see
    /// ``PortableDocumentCollection``.
    public func documents(_ name: String) -> PortableDocumentCollection<Self> {
        PortableDocumentCollection(name: name, transaction: self)
    }
}
