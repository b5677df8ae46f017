import Foundation
import Logging

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
/// since 1970) whenever it is written. Each call is one transaction; `on(_:)` runs the same
/// operations inside a transaction of yours, and a caching handle (`beginCaching()`) batches
/// many changes into one. `events()` announces changes after they commit.
public final class DocumentCollection: Sendable {
    /// The key of a document's identifier.
    public static let idKey = "Id"
    /// The key of a document's last-write time, in seconds since 1970.
    public static let updateKey = "update"
    /// How deeply a stored document may nest: the document is at depth 1, its values at 2,
    /// and so on. Deeper documents are refused when written
    /// (`DatabaseError.Kind.documentTooDeep`), so everything stored can be read back.
    public static let maximumDepth = 512

    /// The collection's name.
    public let name: String
    /// The database the collection lives in.
    public let database: Database
    /// A caching handle's state (see `beginCaching()`); nil for the collection itself,
    /// which always writes through.
    let caching: Guarded<CachingState>?
    /// Posts events to `NotificationCenter`, when asked to.
    private let notificationSubscription: ChangeSubscription?

    init(name: String, database: Database, notificationCenter: NotificationCenter?, caching: Bool = false) {
        self.name = name
        self.database = database
        self.caching = caching ? Guarded(CachingState()) : nil
        notificationSubscription = notificationCenter.map { center in
            Self.postEvents(of: name, to: center, from: database)
        }
    }

    /// The `Id` of a stored document (empty if it has none, which stored documents never lack).
    static func id(of document: Document) -> String {
        document[idKey]?.stringValue ?? ""
    }

    /// Runs `operation` against this handle's cache while it caches, else in a write
    /// transaction.
    func write<T: Sendable>(_ operation: @escaping @Sendable (DocumentOperations) throws -> T) async throws -> T {
        if let caching, case .done(let value) = try await caching.write(operation, loading: { try await storedDocuments() }) {
            return value
        }
        let name = self.name
        return try await database.write { connection in
            try operation(DocumentOperations(store: StoredDocuments(connection: connection, collection: name)))
        }
    }

    /// Runs `operation` against this handle's cache when it holds one, else in a read.
    func read<T: Sendable>(_ operation: @escaping @Sendable (DocumentOperations) throws -> T) async throws -> T {
        if let caching, case .done(let value) = try caching.read(operation) { return value }
        let name = self.name
        return try await database.read { connection in
            try operation(DocumentOperations(store: StoredDocuments(connection: connection, collection: name)))
        }
    }

    /// Every document of the collection, in insertion order: what a caching handle starts from.
    private func storedDocuments() async throws -> [Document] {
        let name = self.name
        return try await database.read { connection in
            try StoredDocuments(connection: connection, collection: name).documents(matching: nil)
        }
    }

    deinit {
        if let caching, caching.hasUnsavedChanges {
            database.configuration.logger.warning(
                "a document caching handle was dropped with unsaved changes: they are lost",
                metadata: ["collection": "\(name)"])
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
