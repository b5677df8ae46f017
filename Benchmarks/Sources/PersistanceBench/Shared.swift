import Synchronization

/// A value shared between threads or tasks, behind a lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R {
        try mutex.withLock { try body(&$0) }
    }

    var value: Value { mutex.withLock { $0 } }
}

/// A flag one thread raises and others poll.
final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)

    var isRaised: Bool { atomic.load(ordering: .acquiring) }

    func raise() { atomic.store(true, ordering: .releasing) }
}
