/// The values of a fetch, observed: `Database.observe(_:)` makes one. Iterating it yields
/// the fetch's value at once, then again after each commit that changed a table the fetch
/// read.
///
/// - The fetch runs on the writer connection, in order with the writes and read-only, so
///   each value reflects exactly the commits announced before it: no value is delivered
///   twice for the same commit, and the first value is never repeated. Keep fetches short:
///   writes wait for them.
/// - The tables a fetch reads are found each time it runs (SQLite's authorizer), so a
///   fetch that reads other tables depending on what it finds is still observed correctly.
/// - Commits that land while a fetch runs, or while the consumer is busy, are coalesced
///   into one fetch; a slow consumer gets only the newest value.
/// - Rolled-back transactions and commits to other tables cause nothing; a commit by
///   another connection or process (whose tables are unknown) causes a fetch.
/// - A fetch that throws ends the sequence with its error. Cancelling the consuming task,
///   or leaving the loop, ends the observation and releases the fetch.
public struct ValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let database: Database
    let fetch: @Sendable (Connection) throws -> Value

    /// Starts the observation: the first value comes from a fetch made now.
    public func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
        let task = Task { [database, fetch] in
            await Self.observe(database, fetch, into: continuation)
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream.makeAsyncIterator()
    }

    private static func observe(
        _ database: Database, _ fetch: @escaping @Sendable (Connection) throws -> Value,
        into continuation: AsyncThrowingStream<Value, any Error>.Continuation
    ) async {
        let region = ObservedRegion()
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let tracker = database.changeTracker
        let subscription = tracker.subscribe(ChangeTracker.Subscriber(
            receive: { batch in
                if region.record(batch) { wake.yield() }
            },
            finish: { wake.finish() }))
        defer { subscription.cancel() }
        var wakeup = wakeups.makeAsyncIterator()
        do {
            while true {
                let fetched = BlockCall { connection in
                    let recorder = connection.changeRecorder
                    try recorder?.beginRecordingReads(on: connection)
                    let result = Result { try fetch(connection) }
                    region.didFetch(tables: recorder?.endRecordingReads(on: connection), sequence: tracker.currentSequence)
                    return try result.get()
                }
                try await database.perform(.read, onWriter: true) { connection in try fetched.run(on: connection) }
                continuation.yield(fetched.take()!)
                repeat {
                    guard await wakeup.next() != nil else {
                        continuation.finish()
                        return
                    }
                } while !region.isStale
            }
        } catch let error as DatabaseError where error.kind == .databaseClosed {
            continuation.finish()  // closing the database ends its observations
        } catch {
            continuation.finish(throwing: error)
        }
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
        ValueObservation(database: self, fetch: fetch)
    }
}
