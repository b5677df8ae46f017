import Foundation

/// A value shared between threads, reached only through a lock that threads can also
/// wait on (a mutex and condition variable in one). Copies share the value and the lock.
struct Guarded<Value: Sendable>: @unchecked Sendable {
    // @unchecked: the value is only read or written while the mutex is locked (in
    // `withLock` and `wait`), so no two threads ever touch it at once.

    /// Which waiting threads to wake after a change.
    enum Wakeup {
        case none, one, all
    }

    private let storage: Storage

    init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Runs `body` with the value while holding the lock, then wakes waiters as asked.
    ///
    /// The waiters are woken after the lock is released: a thread woken while the lock is
    /// still held would find it locked and sleep again until the unlock, two more switches
    /// on a busy processor, where the woken thread often runs before its waker unlocks.
    func withLock<Result>(waking wakeup: Wakeup = .none, _ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, words in
            let mutex = Storage.mutex(in: words)
            pthread_mutex_lock(mutex)
            defer {
                pthread_mutex_unlock(mutex)
                switch wakeup {
                case .none: break
                case .one: pthread_cond_signal(Storage.condition(in: words))
                case .all: pthread_cond_broadcast(Storage.condition(in: words))
                }
            }
            return try body(&value.pointee)
        }
    }

    /// Blocks the calling thread until `isReady` holds for the value, then runs `body` with
    /// it, all under the lock.
    func wait<Result>(until isReady: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, words in
            let mutex = Storage.mutex(in: words)
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            while !isReady(value.pointee) {
                pthread_cond_wait(Storage.condition(in: words), mutex)
            }
            return try body(&value.pointee)
        }
    }

    /// The memory of a `Guarded`: one allocation that holds the value and, after it, the mutex
    /// and the condition, which never move, as pthread objects need.
    final class Storage: ManagedBuffer<Value, UInt64> {
        /// Storage holding `value`, with its mutex and condition initialized.
        static func make(_ value: Value) -> Storage {
            let words = (conditionOffset + MemoryLayout<pthread_cond_t>.size + 7) / 8
            let storage = unsafeDowncast(create(minimumCapacity: words) { _ in value }, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { words in
                let memory = UnsafeMutableRawPointer(words)
                pthread_mutex_init(memory.bindMemory(to: pthread_mutex_t.self, capacity: 1), nil)
                pthread_cond_init((memory + conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1), nil)
            }
            return storage
        }

        deinit {
            withUnsafeMutablePointerToElements { words in
                pthread_cond_destroy(Self.condition(in: words))
                pthread_mutex_destroy(Self.mutex(in: words))
            }
        }

        private static var conditionOffset: Int {
            let alignment = MemoryLayout<pthread_cond_t>.alignment
            return (MemoryLayout<pthread_mutex_t>.size + alignment - 1) / alignment * alignment
        }

        static func mutex(in words: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<pthread_mutex_t> {
            UnsafeMutableRawPointer(words).assumingMemoryBound(to: pthread_mutex_t.self)
        }

        static func condition(in words: UnsafeMutablePointer<UInt64>) -> UnsafeMutablePointer<pthread_cond_t> {
            (UnsafeMutableRawPointer(words) + conditionOffset).assumingMemoryBound(to: pthread_cond_t.self)
        }
    }
}
