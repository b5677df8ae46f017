import Foundation

/// The identity of one database's executor. Each of its threads carries it, so a
/// synchronous call made from inside one of its blocks is recognised instead of deadlocking.
struct ExecutorID: Hashable, Sendable {
    private static let lastValue = Guarded(0)
    private static let threadKey = "Persistance.ExecutorID"

    private let rawValue: Int

    /// A new identity, different from every other one in the process.
    static func next() -> ExecutorID {
        ExecutorID(rawValue: lastValue.withLock { value in
            value += 1
            return value
        })
    }

    /// Stamps the calling thread as one of this executor's threads.
    func markCurrentThread() {
        Thread.current.threadDictionary[Self.threadKey] = rawValue
    }

    /// Whether the calling thread is one of this executor's threads.
    var ownsCurrentThread: Bool {
        Thread.current.threadDictionary[Self.threadKey] as? Int == rawValue
    }
}
