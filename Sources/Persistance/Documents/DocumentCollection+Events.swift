import Foundation

extension DocumentCollection {
    /// The collection's changes, from the moment this is called, whoever made them (the
    /// collection, any caching handle of it, `on(_:)` in a transaction of yours): each event
    /// after the transaction that made it commits, in commit order; nothing for a change
    /// rolled back. A caching handle's changes come when its `save()` commits, in the order
    /// they were made. The portable API's writes (``PortableDocumentCollection``,
    /// ``AsyncDocumentCollection``) come on the same stream.
    ///
    /// The stream ends when its consuming task is cancelled or the loop stops, or when the
    /// database goes away.
    public func events() -> AsyncStream<DocumentEvent> {
        database.documentEvents(of: name)
    }

    /// The `NotificationCenter` name events of `kind` are posted under, as SRPPlist named
    /// them: `SRPPLIST_<NAME>_ADD`, `_UPDATE`, `_REMOVE`, `_REMOVEALL` (the collection's name
    /// uppercased). The `userInfo` holds `ids` (`[String]`) and `documents` (`[[String: Any]]`:
    /// the added, updated or removed documents; empty for `_REMOVEALL`).
    public func notificationName(_ kind: DocumentEvent) -> Notification.Name {
        Self.notificationName(of: name, for: kind)
    }

    private static func notificationName(of collection: String, for kind: DocumentEvent) -> Notification.Name {
        Notification.Name("SRPPLIST_\(collection.uppercased())_\(kind.notificationSuffix)")
    }

    static func subscribe(
        to collection: String, in database: Database,
        receive: @escaping @Sendable (DocumentEvent) -> Void, finish: @escaping @Sendable () -> Void
    ) -> ChangeSubscription {
        database.changeTracker.subscribe(ChangeTracker.Subscriber(
            receive: { batch in
                for case let change as CollectionEvent in batch.payloads where change.collection == collection {
                    receive(change.event)
                }
            },
            finish: finish))
    }

    /// Posts the events of `collection` to `center`, in order, from a queue of their own
    /// (never from the writer's thread, so observers may use the database).
    static func postEvents(of collection: String, to center: NotificationCenter, from database: Database) -> ChangeSubscription {
        let queue = DispatchQueue(label: "persistance.documents.notifications.\(collection)")
        return subscribe(to: collection, in: database, receive: { event in
            queue.async {
                center.post(
                    name: notificationName(of: collection, for: event), object: nil,
                    userInfo: ["ids": event.ids, "documents": event.documents.map { JSONValue.object($0).foundationValue }])
            }
        }, finish: {})
    }
}

extension Database {
    /// The changes made to the document collection `collection` from now on, by any API (the
    /// synchronous ``DocumentCollection``, the portable ``AsyncDocumentCollection`` and
    /// ``PortableDocumentCollection``): the stream ``DocumentCollection/events()`` returns.
    /// Events ride SQLite's change tracking: announced after the transaction that made them
    /// commits, in commit order; nothing for a transaction or savepoint rolled back.
    public func documentEvents(of collection: String) -> AsyncStream<DocumentEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DocumentEvent.self)
        let subscription = DocumentCollection.subscribe(to: collection, in: self) { continuation.yield($0) } finish: {
            continuation.finish()
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return stream
    }
}
