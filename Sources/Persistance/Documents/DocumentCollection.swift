import Foundation

/// A named collection of JSON documents in a database: the schemaless store. A database
/// holds any number of collections, all in one table.
///
/// ```swift
/// let users = try await db.collection("users")
/// let ann = try await users.add(["name": "Ann", "address": ["city": "Paris"]])   // gets Id and update
/// let parisians = try await users.query(where: DocumentField("address.city") == "Paris",
///                                       sort: [DocumentField("name").ascending])
/// ```
///
/// Every document gets an `Id` (a UUID string) when added and an `update` stamp (seconds
/// since 1970) whenever it is written. Each call is one transaction (use the write-back
/// cache, `beginCaching()` … `save()`, to batch many). `events()` announces changes after
/// they commit.
public final class DocumentCollection: Sendable {
    /// The key of a document's identifier.
    public static let idKey = "Id"
    /// The key of a document's last-write time, in seconds since 1970.
    public static let updateKey = "update"

    /// The collection's name.
    public let name: String
    /// The database the collection lives in.
    public let database: Database
    /// The write-back cache while caching; nil otherwise.
    let cache = Guarded<DocumentCache?>(nil)
    /// Posts events to `NotificationCenter`, when asked to.
    private let notificationSubscription: ChangeSubscription?

    init(name: String, database: Database, notificationCenter: NotificationCenter?) {
        self.name = name
        self.database = database
        notificationSubscription = notificationCenter.map { center in
            Self.postEvents(of: name, to: center, from: database)
        }
    }

    /// The `Id` of a stored document (empty if it has none, which stored documents never lack).
    static func id(of document: Document) -> String {
        document[idKey]?.stringValue ?? ""
    }

    /// Runs `operation` against the cache while caching, else in a write transaction.
    func write<T: Sendable>(_ operation: @escaping @Sendable (inout any DocumentStore) throws -> T) async throws -> T {
        let cached = try cache.withLock { cache -> T? in
            // Taken out, so the store holds the only reference and changes in place.
            guard let taken = cache.take() else { return nil }
            var store: any DocumentStore = taken
            defer { cache = store as? DocumentCache }
            return try operation(&store)
        }
        if let cached { return cached }
        let name = self.name
        return try await database.write { connection in
            var store: any DocumentStore = StoredDocuments(connection: connection, collection: name)
            return try operation(&store)
        }
    }

    /// The documents matching `predicate` ordered by `sort`, from the cache while caching,
    /// else from a read.
    func read(matching predicate: DocumentPredicate?, sort: [DocumentSort] = []) async throws -> [Document] {
        try await read { store in try store.documents(matching: predicate, sort: sort) }
    }

    /// Runs `operation` against the cache while caching, else in a read.
    func read<T: Sendable>(_ operation: @escaping @Sendable (any DocumentStore) throws -> T) async throws -> T {
        if let cached = try cache.withLock({ cache in try cache.map { try operation($0) } }) { return cached }
        let name = self.name
        return try await database.read { connection in
            try operation(StoredDocuments(connection: connection, collection: name))
        }
    }
}

extension Database {
    /// The document collection `name` (any string), created on first use.
    /// - Parameters:
    ///   - name: the collection's name; many collections share one file.
    ///   - notificationCenter: where to also post each event under the names
    ///     `SRPPLIST_<NAME>_ADD`, `_UPDATE`, `_REMOVE` and `_REMOVEALL` (see
    ///     `DocumentCollection.notificationName(_:)`); nil posts nothing.
    public func collection(_ name: String, notificationCenter: NotificationCenter? = nil) async throws -> DocumentCollection {
        try await write { connection in try connection.execute(StoredDocuments.createTableSQL) }
        return DocumentCollection(name: name, database: self, notificationCenter: notificationCenter)
    }
}
