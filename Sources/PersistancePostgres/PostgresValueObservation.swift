#if PostgreSQL
import Persistance

/// The values of a fetch, observed: ``PostgresDatabase/observe(_:)`` makes one. Iterating it
/// yields the fetch's value at once, then again after each commit, by this app instance or any
/// other, that changed a table the fetch read.
///
/// - The fetch runs in a READ ONLY, REPEATABLE READ transaction: each value comes from one
///   snapshot. The tables it read are found each time it runs (from the locks its transaction
///   holds), so a fetch that reads other tables depending on what it finds, or reads through
///   views and functions, is still observed correctly. The first time a fetch reads a table,
///   the table gets its change trigger (see ``PostgresDatabase/changes(in:)``) and the fetch
///   runs once more before its value is delivered, since its snapshot may predate the trigger.
/// - Commits are heard through the database's one listening connection, when they commit:
///   rolled-back transactions and commits to other tables cause nothing. When that connection
///   is lost, it is made again and every observation fetches again, commits made meanwhile
///   having gone unheard.
/// - Commits heard while a fetch runs, or while the consumer is busy, are coalesced into one
///   more fetch; a slow consumer gets only the newest value. While commits keep landing, a
///   fetch starts at most every 8 ms; a commit after a quiet moment is fetched at once.
/// - `removeDuplicates()` skips values equal to the previous one.
/// - A fetch that throws ends the sequence with its error, and only that observation.
///   Cancelling the consuming task, or leaving the loop, ends the observation. Closing the
///   database ends the sequence.
public struct PostgresValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let database: PostgresDatabase
    let fetch: @Sendable (PostgresTransaction) async throws -> Value
    /// Whether a value is a duplicate of the previous one, to skip; nil to keep every value.
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// While commits keep landing, the least time from one fetch's start to the next.
    static var pacing: Duration { .milliseconds(8) }

    /// Starts the observation: its first value is fetched now.
    public func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            do {
                try await run(yieldingTo: continuation)
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: database.changeNotifier.isClosed ? nil : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream.makeAsyncIterator()
    }

    /// Fetches, and fetches again whenever a commit touched what the last fetch read, until
    /// cancelled or failing.
    private func run(yieldingTo continuation: AsyncThrowingStream<Value, any Error>.Continuation) async throws {
        let notifier = database.changeNotifier
        let region = PostgresObservedRegion()
        let id = try await notifier.subscribe(.init(receive: region.note, finish: { continuation.finish() }))
        defer { notifier.unsubscribe(id) }
        var previous: Value?
        var lastStart = ContinuousClock.now
        var waits = false
        while true {
            if waits {
                try await region.waitUntilNeedsFetch()
                let earliest = lastStart.advanced(by: Self.pacing)
                if ContinuousClock.now < earliest { try await Task.sleep(until: earliest) }
            }
            lastStart = ContinuousClock.now
            let triggered = notifier.triggeredTables
            region.beginFetch()
            let (value, tables) = try await database.read(isolationLevel: .repeatableRead) { tx in
                let value = try await fetch(tx)
                return (value, try await PostgresChangeTriggers.tablesLocked(by: tx))
            }
            region.endFetch(read: Set(tables.map(\.qualifiedName)))
            // A table read for the first time may have had no trigger when the snapshot was
            // taken: its commits since then went unheard, so the value is dropped and fetched again.
            waits = tables.isSubset(of: triggered)
            guard waits else {
                try await notifier.installTriggers(on: tables, through: database.client)
                continue
            }
            defer { previous = value }
            if let previous, let isDuplicate, isDuplicate(previous, value) { continue }
            continuation.yield(value)
        }
    }
}

extension PostgresValueObservation where Value: Equatable {
    /// The same observation, skipping every value equal to the one before it: a commit that
    /// changes nothing the fetch returns delivers nothing.
    public func removeDuplicates() -> PostgresValueObservation {
        var observation = self
        observation.isDuplicate = { $0 == $1 }
        return observation
    }
}

extension PostgresDatabase {
    /// Observes the value `fetch` returns: the sequence yields it at once, then again after
    /// each commit, by this app instance or another, that changed a table `fetch` read. See
    /// ``PostgresValueObservation``.
    ///
    /// ```swift
    /// for try await count in db.observe({ tx in
    ///     try await tx.fetchOne("SELECT count(*) FROM player")!.value(at: 0, as: Int.self)
    /// }) {
    ///     print("players:", count)
    /// }
    /// ```
    public func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (PostgresTransaction) async throws -> Value
    ) -> PostgresValueObservation<Value> {
        PostgresValueObservation(database: self, fetch: fetch)
    }
}
#endif
