/// The identity of one database's executor. Each of its threads knows it, so a
/// synchronous call made from inside one of its blocks is recognised instead of deadlocking.
struct ExecutorID: Hashable, Sendable {
    private static let lastValue = Guarded(0)

    private let rawValue: Int

    /// A new identity, different from every other one in the process.
    static func next() -> ExecutorID {
        ExecutorID(rawValue: lastValue.withLock { value in
            value += 1
            return value
        })
    }

    /// Whether the calling thread is one of this executor's threads.
    var ownsCurrentThread: Bool {
        ConnectionPool.current?.executorID == self
    }
}
