import Foundation

/// A value shared between threads, reached only through a lock that threads can also
/// wait on (a mutex and condition variable in one).
final class Guarded<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `mutex` is locked (in `withLock`
    // and `wait`), so no two threads ever touch it at once.

    /// Which waiting threads to wake after a change.
    enum Wakeup {
        case none, one, all
    }

    /// The mutex and the condition, in one allocation that never moves (pthread objects
    /// must keep their address).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Only touched with `mutex` locked, which already excludes any overlapping access, so it
    /// opts out of run-time exclusivity checks.
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: Self.conditionOffset + MemoryLayout<pthread_cond_t>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<pthread_cond_t>.alignment))
        mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        condition = (memory + Self.conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    private static var conditionOffset: Int {
        let alignment = MemoryLayout<pthread_cond_t>.alignment
        return (MemoryLayout<pthread_mutex_t>.size + alignment - 1) / alignment * alignment
    }

    /// Runs `body` with the value while holding the lock, then wakes waiters as asked.
    func withLock<Result>(waking wakeup: Wakeup = .none, _ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            switch wakeup {
            case .none: break
            case .one: pthread_cond_signal(condition)
            case .all: pthread_cond_broadcast(condition)
            }
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Blocks the calling thread until `isReady` holds for the value, then runs `body` with
    /// it, all under the lock.
    func wait<Result>(until isReady: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(value) {
            pthread_cond_wait(condition, mutex)
        }
        return try body(&value)
    }
}
