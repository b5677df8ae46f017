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
        if let caching {
            caching: while true {
                let step = try caching.withLock { state -> CachingStep<T> in
                    guard state.isCaching else { return .writeThrough }
                    // Taken out, so the operations hold the only reference and change it in place.
                    guard let cache = state.cache.take() else { return .load }
                    let operations = DocumentOperations(store: cache)
                    defer { state.cache = operations.store as? DocumentCache }
                    return .done(try operation(operations))
                }
                switch step {
                case .done(let value): return value
                case .load: try await loadCache(into: caching)
                case .writeThrough: break caching
                }
            }
        }
        let name = self.name
        return try await database.write { connection in
            try operation(DocumentOperations(store: StoredDocuments(connection: connection, collection: name)))
        }
    }

    /// Runs `operation` against this handle's cache when it holds one, else in a read.
    func read<T: Sendable>(_ operation: @escaping @Sendable (DocumentOperations) throws -> T) async throws -> T {
        let cached = try caching?.withLock { state in
            try state.cache.map { try operation(DocumentOperations(store: $0)) }
        }
        if let cached { return cached }
        let name = self.name
        return try await database.read { connection in
            try operation(DocumentOperations(store: StoredDocuments(connection: connection, collection: name)))
        }
    }

    /// Reads every document into a cache for `caching`, unless it has one (or stopped) by then.
    private func loadCache(into caching: Guarded<CachingState>) async throws {
        let name = self.name
        let stored = try await database.read { connection in
            try StoredDocuments(connection: connection, collection: name).documents(matching: nil)
        }
        caching.withLock { state in
            if state.isCaching, state.cache == nil { state.cache = DocumentCache(stored) }
        }
    }

    deinit {
        if let caching, caching.withLock({ $0.cache?.hasChanges ?? false }) {
            database.configuration.logger.warning(
                "a document caching handle was dropped with unsaved changes: they are lost",
                metadata: ["collection": "\(name)"])
        }
    }
}

/// What a caching handle holds.
struct CachingState: Sendable {
    /// False once `endCaching()` ran: the handle writes through from then on.
    var isCaching = true
    /// The documents and unsaved changes; nil until the handle's first write (and after
    /// `discard()`), when it is read from the database.
    var cache: DocumentCache?
}

/// What a caching handle's write does next.
private enum CachingStep<T> {
    case done(T)
    case load
    case writeThrough
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
