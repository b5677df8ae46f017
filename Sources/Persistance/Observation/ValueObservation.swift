/// The values of a fetch, observed: `Database.observe(_:)` makes one. Iterating it yields
/// the fetch's value at once, then again after each commit that changed a table the fetch
/// read.
///
/// - The fetch runs read-only on a reader connection, concurrently with the writes, in a
///   snapshot taken between two commits: each value reflects exactly the commits announced
///   before its fetch, never a later one; no commit causes two fetches, and the first value
///   is never repeated. Writes do not wait for fetches. An in-memory database, which has
///   one connection, fetches on it, in order with the writes: there writes wait for fetches.
/// - The tables a fetch reads are found each time it runs (SQLite's authorizer), so a
///   fetch that reads other tables depending on what it finds is still observed correctly.
/// - However many observations run, a commit costs the writer the same: it is handed to the
///   database's one scheduler, which matches it against what each observation read off the
///   writer. The observations that must fetch are fetched in rounds, one after another in
///   one snapshot (a slow fetch delays the others of its round).
/// - Commits that land while a round runs, or while the consumer is busy, are coalesced
///   into one fetch; a slow consumer gets only the newest value. While commits keep
///   landing, rounds are paced: one starts at most every 8 ms, and the reader rests eight
///   times the processor time the last round used, so observations take at most a ninth of
///   one processor from the writes (a round that waited, on the disk or a lock, costs the
///   next no delay). A commit after a quiet moment is fetched at once.
/// - Rolled-back transactions and commits to other tables cause nothing; a commit by
///   another connection or process (whose tables are unknown) causes a fetch.
/// - Observations made with the same sharing key (`Database.observe(sharing:_:)`) share
///   one fetch per commit, whose value each of them receives.
/// - `removeDuplicates()` skips values equal to the previous one.
/// - A fetch that throws ends the sequence with its error. Cancelling the consuming task,
///   or leaving the loop, ends the observation and releases the fetch. Closing the
///   database ends the sequence.
public struct ValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let database: Database
    let fetch: @Sendable (Connection) throws -> Value
    /// The key of the observations that share this one's fetch; nil for none.
    let sharingKey: (any Hashable & Sendable)?
    /// Whether a value is a duplicate of the previous one, to skip; nil to keep every value.
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// Starts the observation: the first value comes from a fetch made now, or, when
    /// joining a shared observation that runs already, is its latest value.
    public func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.Iterator {
        let (member, stream, continuation) = ObservationMembers<Value>.Member.feedingStream(skipping: isDuplicate)
        let (hub, id) = database.changeTracker.sharedObservations.join(member, sharing: sharingKey) { onEnd in
            ObservationHub(database: database, fetch: fetch, onEnd: onEnd)
        }
        continuation.onTermination = { _ in hub.leave(id) }
        return stream.makeAsyncIterator()
    }
}

extension ValueObservation where Value: Equatable {
    /// The same observation, skipping every value equal to the one before it: a commit
    /// that changes nothing the fetch returns delivers nothing.
    public func removeDuplicates() -> ValueObservation {
        var observation = self
        observation.isDuplicate = { $0 == $1 }
        return observation
    }
}

extension Database {
    /// Observes the value `fetch` returns: the sequence yields it at once, then again after
    /// each commit that changed a table `fetch` read. See `ValueObservation`.
    ///
    /// ```swift
    /// for try await count in db.observe({ conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM player") }) {
    ///     print("players:", count ?? 0)
    /// }
    /// ```
    public func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (Connection) throws -> Value
    ) -> ValueObservation<Value> {
        ValueObservation(database: self, fetch: fetch, sharingKey: nil)
    }

    /// Observes the value `fetch` returns, like `observe(_:)`, sharing one fetch per commit
    /// with every other running observation of this database made with an equal `key` and
    /// the same value type: 50 clients streaming the same value cost one fetch per commit.
    /// The fetch of the observation that started first is the one that runs, so observations
    /// of one key must fetch the same thing. One that joins a running observation first
    /// receives its latest value.
    ///
    /// ```swift
    /// let players = db.observe(sharing: "player count") { conn in
    ///     try conn.fetchOne(Int.self, "SELECT count(*) FROM player") ?? 0
    /// }
    /// ```
    public func observe<Value: Sendable>(
        sharing key: some Hashable & Sendable, _ fetch: @escaping @Sendable (Connection) throws -> Value
    ) -> ValueObservation<Value> {
        ValueObservation(database: self, fetch: fetch, sharingKey: key)
    }
}
