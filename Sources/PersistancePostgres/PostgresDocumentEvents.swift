#if PostgreSQL
import Persistance

extension PostgresTransaction {
    /// Keeps `event` until the transaction ends: published on the database's
    /// `documentEvents(of:)` once COMMIT succeeds, in commit order; dropped when the
    /// transaction, or the savepoint it was made in, rolls back. A transaction run again
    /// after a conflict (SQLSTATE 40001, 40P01) announces only what its last run committed.
    public func announceAfterCommit(_ event: DocumentEvent, of collection: String) {
        documentEvents.append(event, of: collection)
    }
}

extension PostgresDatabase {
    /// The changes made to the document collection `collection` from now on by this app
    /// instance (this `PostgresDatabase`): each after the transaction that made it commits, in
    /// commit order; nothing for a transaction or savepoint rolled back. Other instances'
    /// writes are not announced here: observe the documents table (`tableChanges(in:)`,
    /// `observe`) to see them. The stream ends when the database closes.
    public func documentEvents(of collection: String) -> AsyncStream<DocumentEvent> {
        documentEventHub.events(of: collection)
    }
}
#endif
