/// The values of a portable fetch, observed: ``AsyncDatabase/observe(_:)`` makes one, on
/// every engine. Iterating it yields the fetch's value at once, then again after each commit
/// that changed a table the fetch read, with the same guarantees on SQLite and PostgreSQL:
///
/// - Each value comes from one read-only snapshot, and reflects every commit announced before
///   its fetch began: no commit is missed, including those of other connections, processes
///   and app instances.
/// - A transaction that rolls back, or a commit to a table the fetch did not read, causes no
///   fetch (a commit by another connection to a SQLite file, whose tables are unknown, and a
///   PostgreSQL listening connection made again after a loss cause one).
/// - Commits that land while a fetch runs, or while the consumer is busy, are coalesced into
///   one more fetch: a slow consumer gets only the newest value, never an older one after it.
/// - Observations made with the same sharing key (``AsyncDatabase/observe(sharing:_:)``) share
///   one fetch per change, whose value each of them receives.
/// - ``removeDuplicates()`` skips values equal to the previous one.
/// - A fetch that throws ends the sequence with its error. Cancelling the consuming task, or
///   leaving the loop, ends the observation. Closing the database ends the sequence.
///
/// Each engine documents how it hears commits: SQLite's `ValueObservation`, PostgreSQL's
/// `PostgresDatabase.observe(_:)`.
public struct AsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    /// Starts the engine's observation, skipping the values the closure it receives finds
    /// equal to the previous one (none when nil).
    private let start: @Sendable (_ isDuplicate: (@Sendable (Value, Value) -> Bool)?) -> AsyncThrowingStream<Value, any Error>.Iterator
    /// Whether a value is a duplicate of the previous one, to skip; nil to keep every value.
    private var isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// An observation that `start` begins each time it is iterated: `start` receives whether a
    /// value repeats the previous one (nil to keep every value) and returns the iterator of the
    /// engine's stream of values.
    package init(
        start: @escaping @Sendable (_ isDuplicate: (@Sendable (Value, Value) -> Bool)?) -> AsyncThrowingStream<Value, any Error>.Iterator
    ) {
        self.start = start
    }

    /// Starts the observation: the first value is fetched now or, when joining a shared
    /// observation that runs already, is its latest value.
    public func makeAsyncIterator() -> AsyncThrowingStream<Value, any Error>.Iterator {
        start(isDuplicate)
    }
}

extension AsyncValueObservation where Value: Equatable {
    /// The same observation, skipping every value equal to the one before it: a commit that
    /// changes nothing the fetch returns delivers nothing.
    public func removeDuplicates() -> AsyncValueObservation {
        var observation = self
        observation.isDuplicate = { $0 == $1 }
        return observation
    }
}
