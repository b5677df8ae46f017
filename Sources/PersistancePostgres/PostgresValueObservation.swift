#if PostgreSQL
import Persistance

extension PostgresDatabase {
    /// Observes the value `fetch` returns: the sequence yields it at once, then again after
    /// each commit, by this app instance or another, that changed a table `fetch` read. The
    /// portable observation (`AsyncValueObservation`), with the same guarantees as on SQLite.
    ///
    /// ```swift
    /// for try await count in db.observe({ tx in
    ///     try await tx.fetchOne("SELECT count(*) FROM player")!.value(at: 0, as: Int.self)
    /// }) {
    ///     print("players:", count)
    /// }
    /// ```
    ///
    /// - The fetch runs in a READ ONLY, REPEATABLE READ transaction: each value comes from one
    ///   snapshot. The tables it read are found each time it runs (from the locks its
    ///   transaction holds), so a fetch that reads other tables depending on what it finds, or
    ///   reads through views and functions, is still observed correctly. The first time a fetch
    ///   reads a table, the table gets its change trigger (see ``changes(in:)``) and the fetch
    ///   runs once more before its value is delivered, since its snapshot may predate the trigger.
    /// - Commits are heard through the database's one listening connection, when they commit:
    ///   rolled-back transactions and commits to other tables cause nothing. When that
    ///   connection is lost, it is made again and every observation fetches again, commits made
    ///   meanwhile having gone unheard.
    /// - Commits heard while a fetch runs, or while the consumer is busy, are coalesced into one
    ///   more fetch; a slow consumer gets only the newest value. While commits keep landing, a
    ///   fetch starts at most every 8 ms; a commit after a quiet moment is fetched at once.
    /// - `removeDuplicates()` skips values equal to the previous one.
    /// - A fetch that throws ends the sequence with its error, and only that observation.
    ///   Cancelling the consuming task, or leaving the loop, ends the observation. Closing the
    ///   database ends the sequence.
    public func observe<Value: Sendable>(
        _ fetch: nonisolated(nonsending) @escaping @Sendable (PostgresTransaction) async throws -> Value
    ) -> AsyncValueObservation<Value> {
        observation(sharing: nil, fetch)
    }

    /// Observes the value `fetch` returns, like ``observe(_:)``, sharing one fetch per change
    /// with every other running observation of this database made with an equal `key` and the
    /// same value type: many clients streaming the same value cost one fetch per change (and
    /// one subscription to the listening connection). The fetch of the observation that
    /// started first is the one that runs, so observations of one key must fetch the same
    /// thing. One that joins a running observation first receives its latest value.
    ///
    /// ```swift
    /// let players = db.observe(sharing: "player count") { tx in
    ///     try await tx.fetchOne("SELECT count(*) FROM player")!.value(at: 0, as: Int.self)
    /// }
    /// ```
    public func observe<Value: Sendable>(
        sharing key: some Hashable & Sendable, _ fetch: nonisolated(nonsending) @escaping @Sendable (PostgresTransaction) async throws -> Value
    ) -> AsyncValueObservation<Value> {
        observation(sharing: key, fetch)
    }

    /// An observation that joins the hub of `key` (a hub of its own without a key) each time
    /// it is iterated.
    private func observation<Value: Sendable>(
        sharing key: (any Hashable & Sendable)?, _ fetch: nonisolated(nonsending) @escaping @Sendable (PostgresTransaction) async throws -> Value
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation { [self] isDuplicate in
            let (member, stream, continuation) = ObservationMembers<Value>.Member.feedingStream(skipping: isDuplicate)
            let (hub, id) = changeNotifier.sharedObservations.join(member, sharing: key) { onEnd in
                PostgresObservationHub(database: self, fetch: fetch, onEnd: onEnd)
            }
            continuation.onTermination = { _ in hub.leave(id) }
            return stream.makeAsyncIterator()
        }
    }
}
#endif
