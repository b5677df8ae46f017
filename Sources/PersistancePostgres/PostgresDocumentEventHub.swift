#if PostgreSQL
import Persistance
import Synchronization

/// The document events of a ``PostgresDatabase``: each committed transaction's events, handed
/// to this app instance's `documentEvents(of:)` streams in commit order.
///
/// A transaction with events takes a ticket just before it sends COMMIT and resolves it when
/// COMMIT answers: with its events when it committed, with none when it failed. Tickets are
/// published in the order they were taken, each once every earlier one is resolved. Two
/// transactions that touch the same rows take their tickets in their commit order (the later
/// one waits on the server for the earlier one's locks, so it cannot reach its COMMIT before
/// the earlier one sent its own), so their events come in that order even when the COMMIT
/// answers cross on the way back; waiting for a ticket never holds up the server.
final class PostgresDocumentEventHub: Sendable {
    /// An event and the collection it changed.
    typealias Event = (collection: String, event: DocumentEvent)

    private struct Subscriber {
        let collection: String
        let continuation: AsyncStream<DocumentEvent>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextSubscriber: UInt64 = 0
        var nextTicket: UInt64 = 0
        /// The oldest ticket not published yet.
        var nextToPublish: UInt64 = 0
        /// Tickets resolved but waiting for an earlier one.
        var resolved: [UInt64: [Event]] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    /// A stream of the events of `collection` committed from now on; finished at once when the
    /// hub is closed.
    func events(of collection: String) -> AsyncStream<DocumentEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DocumentEvent.self)
        let id = state.withLock { state -> UInt64? in
            guard !state.isClosed else { return nil }
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = Subscriber(collection: collection, continuation: continuation)
            return state.nextSubscriber
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// A place in the publishing order, taken just before a COMMIT is sent. Every ticket must
    /// be resolved (see ``resolve(_:with:)``), or later ones are never published.
    func ticket() -> UInt64 {
        state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
    }

    /// Resolves `ticket` with the events its transaction committed (none when it failed), and
    /// publishes every resolved ticket whose predecessors are all published, in order.
    func resolve(_ ticket: UInt64, with events: [Event]) {
        state.withLock { state in
            state.resolved[ticket] = events
            // Yielding never blocks (the streams buffer), so the order holds under the lock.
            while let ready = state.resolved.removeValue(forKey: state.nextToPublish) {
                state.nextToPublish += 1
                for (collection, event) in ready {
                    for subscriber in state.subscribers.values where subscriber.collection == collection {
                        subscriber.continuation.yield(event)
                    }
                }
            }
        }
    }

    /// Finishes every stream, and those made from now on: the database closed.
    func close() {
        let subscribers = state.withLock { state in
            state.isClosed = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }
}

/// The document events a PostgreSQL transaction has made so far, announced when it commits;
/// those of a savepoint that rolls back are dropped.
struct PendingDocumentEvents {
    private(set) var events: [PostgresDocumentEventHub.Event] = []

    /// Where the events stand now: a savepoint that rolls back goes back here.
    var mark: Int { events.count }

    mutating func append(_ event: DocumentEvent, of collection: String) {
        events.append((collection, event))
    }

    /// Drops the events made since `mark`.
    mutating func rollBack(to mark: Int) {
        if events.count > mark { events.removeSubrange(mark...) }
    }

    /// Runs `commit` (the transaction's COMMIT) and, once it succeeded, publishes the events
    /// through `hub` in commit order; when it fails, publishes nothing and rethrows.
    func publish(to hub: PostgresDocumentEventHub, committing commit: () async throws -> Void) async throws {
        guard !events.isEmpty else { return try await commit() }
        let ticket = hub.ticket()
        do {
            try await commit()
        } catch {
            hub.resolve(ticket, with: [])
            throw error
        }
        hub.resolve(ticket, with: events)
    }
}
#endif
