/// The keyed container of the last record decoded or encoded, kept for the next one.
///
/// A record type asks for a container keyed by the same `CodingKey` type for every row,
/// and building one costs two generic metadata look-ups and an allocation. The standard
/// `KeyedDecodingContainer` and `KeyedEncodingContainer` are each one reference to the box
/// that wraps the concrete container, so that reference is kept, tagged with the key type
/// and the date strategy it was built for; a container of any other size is not kept.
///
/// Handing the kept container back as its type still needs that type's metadata, which
/// for `KeyedDecodingContainer<Key>` (generic, and resilient: its layout is the standard
/// library's) is otherwise looked up in the runtime's cache on every row. So the second
/// time a container is handed back, the cache makes a `ContainerFromBox<Container>` (not
/// the first: a one-row decoder would pay for it for nothing), whose method then finds
/// the metadata in the object's own class, with no look-up.
///
/// The decoder's container refers to the decoder without retaining it, so the cache
/// tells whether a kept container is also held elsewhere (a record that stored it).
/// Stored in the encoder or decoder that uses it, so it costs no allocation of its own.
struct KeyedContainerCache {
    private var keyType: Any.Type?
    private var dateStrategy = DatabaseDateStrategy.text
    private var box: AnyObject?
    /// A `ContainerFromBox` of the kept container's type, once it was handed back once.
    private var containerFromBox: AnyObject?

    /// Whether a container is kept for `keyType` and `dateStrategy`.
    @inline(__always)
    func holds(keyedBy keyType: Any.Type, dateStrategy: DatabaseDateStrategy) -> Bool {
        box != nil && self.keyType == keyType && self.dateStrategy == dateStrategy
    }

    /// The kept container, as the type it was kept as; only after `holds` said so for its
    /// key type (a cache keeps containers of one kind: decoding or encoding ones).
    @inline(__always)
    mutating func kept<Container>() -> Container {
        guard let containerFromBox else { return keptFirstTime() }
        return unsafeDowncast(containerFromBox, to: ContainerFromBox<Container>.self)
            .container(from: box.unsafelyUnwrapped)
    }

    /// `kept()` the first time, which makes the `ContainerFromBox` for the next ones. Apart,
    /// because it looks up `Container`'s metadata, which the caller would otherwise do first.
    @inline(never)
    private mutating func keptFirstTime<Container>() -> Container {
        containerFromBox = ContainerFromBox<Container>()
        return unsafeBitCast(box.unsafelyUnwrapped, to: Container.self)
    }

    /// Keeps `container`, built for `keyType` and `dateStrategy`, in place of the previous
    /// one. Returns whether that previous container is still held elsewhere.
    @discardableResult
    mutating func keep<Container>(_ container: Container, keyedBy keyType: Any.Type, dateStrategy: DatabaseDateStrategy) -> Bool {
        guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size else { return false }
        let replacedIsShared = keptContainerIsShared
        self.keyType = keyType
        self.dateStrategy = dateStrategy
        box = unsafeBitCast(container, to: AnyObject.self)
        containerFromBox = nil
        return replacedIsShared
    }

    /// Whether the kept container is also held outside this cache.
    var keptContainerIsShared: Bool {
        mutating get { box != nil && !isKnownUniquelyReferenced(&box) }
    }
}

/// Returns a kept container's box as the container. A method of a generic class takes its
/// generic arguments from the object's class, so a call needs no metadata look-up (inlined,
/// it would take them from the caller's, looking the container's type up again).
private final class ContainerFromBox<Container> {
    @inline(never)
    func container(from box: AnyObject) -> Container {
        unsafeBitCast(box, to: Container.self)
    }
}
