/// Where the value of an asynchronous block waits for the task that awaits it: written once
/// by the pool thread that runs the block, taken by the task after the job resumed it (which
/// orders the two). Made in the caller's specialized code, so the executor itself needs no
/// generic type. Copies share the value.
@usableFromInline
struct BlockValue<Value>: @unchecked Sendable {
    // @unchecked: written by one thread, then read by another only after the continuation
    // resume that follows the write.

    @usableFromInline let storage: Storage

    /// An empty one.
    @inlinable
    init() {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in false }, to: Storage.self)
    }

    /// Stores `value`, replacing any stored before. Moves it in rather than copying it
    /// (a copy retains every reference the value holds, and the original is then released).
    @inlinable
    func store(_ value: consuming Value) {
        var incoming = Optional(value)
        storage.withUnsafeMutablePointers { isStored, element in
            if isStored.pointee { element.deinitialize(count: 1) }
            element.initialize(to: incoming.take()!)
            isStored.pointee = true
        }
    }

    /// Removes and returns the stored value; nil when none was stored.
    @inlinable
    func take() -> Value? {
        storage.withUnsafeMutablePointers { isStored, element in
            guard isStored.pointee else { return nil }
            isStored.pointee = false
            return element.move()
        }
    }

    /// The value in the object's tail, beside a flag saying whether it was stored, rather
    /// than in a `Value?` property: the class's deinit is generic code, and destroying a
    /// `Value?` there would look up the metadata of `Optional<Value>` on every call.
    @usableFromInline
    final class Storage: ManagedBuffer<Bool, Value> {
        deinit {
            withUnsafeMutablePointers { isStored, element in
                if isStored.pointee { element.deinitialize(count: 1) }
            }
        }
    }
}
