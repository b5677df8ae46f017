/// One call of a caller's block on a pool thread: the block, and where its value waits for
/// the task that awaits it. Made in the caller's specialized code, so the executor itself
/// needs no generic type; run by the pool thread (`run(on:)`), which stores the value, then
/// taken by the task after the job resumed it (which orders the two). Copies share the call.
///
/// The block and its value live in one object, and the closure that the executor runs
/// (`{ try call.run(on: $0) }`) captures only that object, which then serves as the
/// closure's context: one allocation per call rather than three.
@usableFromInline
struct BlockCall<Value>: @unchecked Sendable {
    // @unchecked: the value is written by one thread, then read by another only after the
    // continuation resume that follows the write; the block is only read.

    @usableFromInline let storage: Storage

    /// A call of `body`, with no value yet.
    @inlinable
    init(_ body: @escaping @Sendable (Connection) throws -> Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in Header(body: body) }, to: Storage.self)
    }

    /// Runs the block with `connection` and stores its value, replacing any stored before.
    /// Moves the value in rather than copying it (a copy retains every reference the value
    /// holds, and the original is then released).
    @inlinable
    func run(on connection: Connection) throws {
        var incoming = Optional(try storage.header.body(connection))
        storage.withUnsafeMutablePointers { header, element in
            if header.pointee.isStored { element.deinitialize(count: 1) }
            element.initialize(to: incoming.take()!)
            header.pointee.isStored = true
        }
    }

    /// Removes and returns the stored value; nil when none was stored.
    @inlinable
    func take() -> Value? {
        storage.withUnsafeMutablePointers { header, element in
            guard header.pointee.isStored else { return nil }
            header.pointee.isStored = false
            return element.move()
        }
    }

    /// The block, and whether the value is stored.
    @usableFromInline
    struct Header {
        @usableFromInline let body: @Sendable (Connection) throws -> Value
        @usableFromInline var isStored = false

        @inlinable
        init(body: @escaping @Sendable (Connection) throws -> Value) {
            self.body = body
        }
    }

    /// The value in the object's tail, beside a flag in the header saying whether it was
    /// stored, rather than in a `Value?` property: the class's deinit is generic code, and
    /// destroying a `Value?` there would look up the metadata of `Optional<Value>` on every call.
    @usableFromInline
    final class Storage: ManagedBuffer<Header, Value> {
        deinit {
            withUnsafeMutablePointers { header, element in
                if header.pointee.isStored { element.deinitialize(count: 1) }
            }
        }
    }
}
