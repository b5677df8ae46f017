import Logging

/// A named document collection of any engine's database: the portable counterpart of
/// ``DocumentCollection``, with the operations of ``PortableDocumentCollection`` each in a
/// transaction of its own, a write-back cache (``beginCaching()``), and ``events()``.
///
/// ```swift
/// let users = try await db.documents("users")          // any AsyncDatabase
/// let ann = try await users.add(["name": "Ann", "age": 31])
/// for await event in users.events() { … }             // after each commit, in commit order
/// try await db.write { tx in                           // with other writes, in one transaction
///     try await users.on(tx).remove(id: DocumentCollection.id(of: ann))
/// }
/// ```
///
/// Changes are announced after the transaction that made them commits, whichever way they
/// were written: by this handle, any caching handle's `save()`, or ``on(_:)``
/// (``PortableDocumentCollection``) in a transaction of yours. On SQLite they come on the same
/// stream as the synchronous `DocumentCollection.events()`. On PostgreSQL they are this app
/// instance's own changes: other instances' writes to the documents table are seen through
/// table observation (`tableChanges(in:)`, `observe`), not as document events.
public final class AsyncDocumentCollection<DB: AsyncDatabase>: Sendable {
    /// The collection's name.
    public let name: String
    /// The database the collection lives in.
    public let database: DB
    /// A caching handle's state (see ``beginCaching()``); nil for the collection itself,
    /// which always writes through.
    let caching: Guarded<CachingState>?

    init(name: String, database: DB, caching: Bool) {
        self.name = name
        self.database = database
        self.caching = caching ? Guarded(CachingState()) : nil
    }

    /// The collection's operations in `transaction`, a transaction of yours: they commit or
    /// roll back with its other writes, and their events come only after it commits. Always on
    /// the database, even for a caching handle. The same as `transaction.documents(name)`.
    public func on(_ transaction: DB.Transaction) -> PortableDocumentCollection<DB.Transaction> {
        transaction.documents(name)
    }

    /// The collection's changes from the moment this is called, whoever made them: each after
    /// the transaction that made it commits, in commit order; nothing for a change rolled
    /// back (a savepoint's included). A caching handle's changes come when its `save()`
    /// commits, in the order they were made. The stream ends when its consuming task is
    /// cancelled or the loop stops, or when the database closes.
    public func events() -> AsyncStream<DocumentEvent> {
        database.documentEvents(of: name)
    }

    /// Adds `document` with a new `Id` and an `update` stamp, and returns it as stored.
    /// - Throws: as ``PortableDocumentCollection/add(_:)``, before writing anything.
    @discardableResult
    public func add(_ document: Document) async throws -> Document {
        try await add(contentsOf: [document])[0]
    }

    /// Adds `documents` in one transaction (all or none), each with a new `Id` and an
    /// `update` stamp, and returns them as stored.
    /// - Throws: as ``PortableDocumentCollection/add(contentsOf:)``, before writing anything.
    @discardableResult
    public func add(contentsOf documents: [Document]) async throws -> [Document] {
        try await write { try $0.add(contentsOf: documents) } through: { try await $0.add(contentsOf: documents) }
    }

    /// Stores `document` under its `Id` with a new `update` stamp, replacing the document with
    /// that `Id` or adding it; returns it as stored.
    /// - Throws: as ``PortableDocumentCollection/save(_:)``.
    @discardableResult
    public func save(_ document: Document) async throws -> Document {
        try await write { try $0.save(document) } through: { try await $0.save(document) }
    }

    /// Replaces the document with `document`'s `Id` by `document`, with a new `update` stamp;
    /// returns false (writing nothing) when there is none.
    /// - Throws: as ``PortableDocumentCollection/replace(_:)``.
    @discardableResult
    public func replace(_ document: Document) async throws -> Bool {
        try await write { try $0.replace(document) } through: { try await $0.replace(document) }
    }

    /// Removes the document whose `Id` is `id`; returns false when there is none.
    @discardableResult
    public func remove(id: String) async throws -> Bool {
        try await write { try !$0.removeDocuments(where: .id(id)).isEmpty } through: { try await $0.remove(id: id) }
    }

    /// Removes every document matching `predicate`, in one transaction; returns how many there
    /// were. The `removed` event carries the documents as they were.
    @discardableResult
    public func remove(where predicate: DocumentPredicate) async throws -> Int {
        try await write { try $0.removeDocuments(where: predicate).count } through: { try await $0.remove(where: predicate) }
    }

    /// Removes every document of the collection; returns how many there were.
    @discardableResult
    public func removeAll() async throws -> Int {
        try await write { try $0.removeAll() } through: { try await $0.removeAll() }
    }

    /// The document whose `Id` is `id`; nil when there is none.
    public func document(withID id: String) async throws -> Document? {
        try await query(where: .id(id)).first
    }

    /// The documents matching `predicate` (all when nil), ordered by `sort` then by insertion
    /// order, from the `offset`th on (from 0) and at most `limit` of them (all when nil).
    /// - Throws: as ``PortableDocumentCollection/query(where:sort:limit:offset:)``.
    public func query(
        where predicate: DocumentPredicate?, sort: [DocumentSort] = [], limit: Int? = nil, offset: Int = 0
    ) async throws -> [Document] {
        try await read { operations in
            let found = try operations.query(where: predicate, sort: sort)
            guard limit ?? 0 >= 0, offset >= 0 else {
                throw DatabaseError.invalidQuery("a document query's limit and offset cannot be negative")
            }
            return Array(found.dropFirst(offset).prefix(limit ?? .max))
        } through: {
            try await $0.query(where: predicate, sort: sort, limit: limit, offset: offset)
        }
    }

    /// The number of documents matching `predicate` (all when nil).
    public func count(where predicate: DocumentPredicate? = nil) async throws -> Int {
        try await read { try $0.count(where: predicate) } through: { try await $0.count(where: predicate) }
    }

    /// Runs `cached` on this handle's write-back cache while it caches, else `operation` in a
    /// write transaction of its own.
    private func write<T: Sendable>(
        _ cached: (DocumentOperations) throws -> T,
        through operation: nonisolated(nonsending) (PortableDocumentCollection<DB.Transaction>) async throws -> T
    ) async throws -> T {
        if let caching, case .done(let value) = try await caching.write(cached, loading: { try await storedDocuments() }) {
            return value
        }
        return try await database.write { transaction in try await operation(transaction.documents(name)) }
    }

    /// Runs `cached` on this handle's write-back cache when it holds one, else `operation` in
    /// a read transaction of its own.
    private func read<T: Sendable>(
        _ cached: (DocumentOperations) throws -> T,
        through operation: nonisolated(nonsending) (PortableDocumentCollection<DB.Transaction>) async throws -> T
    ) async throws -> T {
        if let caching, case .done(let value) = try caching.read(cached) { return value }
        return try await database.read { transaction in try await operation(transaction.documents(name)) }
    }

    /// Every document of the collection, in insertion order: what a caching handle starts from.
    private func storedDocuments() async throws -> [Document] {
        try await database.read { transaction in try await transaction.documents(name).query(where: nil) }
    }

    deinit {
        if caching?.hasUnsavedChanges ?? false {
            cachingHandleLogger.warning(
                "a document caching handle was dropped with unsaved changes: they are lost",
                metadata: ["collection": "\(name)"])
        }
    }
}

/// Where a portable caching handle dropped with unsaved changes is reported (the app's
/// logging system; a SQLite `DocumentCollection` reports to its database's logger).
private let cachingHandleLogger = Logger(label: "persistance.documents")

extension AsyncDatabase {
    /// The document collection `name` (any string) of this database, its table created when
    /// missing (under ``DatabaseTransaction/serializeSchemaChanges()``, so app instances that
    /// start together create it once). Every collection shares that table.
    public func documents(_ name: String) async throws -> AsyncDocumentCollection<Self> {
        try await write { transaction in try await transaction.documents(name).createTable() }
        return AsyncDocumentCollection(name: name, database: self, caching: false)
    }
}
