import Foundation

/// A value shared between threads, reached only through a lock that threads can also
/// wait on (a mutex and condition variable in one).
final class Guarded<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `condition` is locked (in
    // `withLock` and `wait`), so no two threads ever touch it at once.

    /// Which waiting threads to wake after a change.
    enum Wakeup {
        case none, one, all
    }

    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock, then wakes waiters as asked.
    func withLock<Result>(waking wakeup: Wakeup = .none, _ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            switch wakeup {
            case .none: break
            case .one: condition.signal()
            case .all: condition.broadcast()
            }
            condition.unlock()
        }
        return try body(&value)
    }

    /// Blocks the calling thread until `isReady` holds for the value, then runs `body` with
    /// it, all under the lock.
    func wait<Result>(until isReady: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        while !isReady(value) {
            condition.wait()
        }
        return try body(&value)
    }
}
