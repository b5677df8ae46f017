/// The keyed container of the last record decoded or encoded, kept for the next one.
///
/// A record type asks for a container keyed by the same `CodingKey` type for every row,
/// and building one costs two generic metadata look-ups and an allocation. The standard
/// `KeyedDecodingContainer` and `KeyedEncodingContainer` are each one reference to the box
/// that wraps the concrete container, so that reference is kept, tagged with the key type
/// and the date strategy it was built for; a container of any other size is not kept.
///
/// The decoder's container refers to the decoder without retaining it, so the cache
/// tells whether a kept container is also held elsewhere (a record that stored it).
/// Stored in the encoder or decoder that uses it, so it costs no allocation of its own.
struct KeyedContainerCache {
    private var keyType: Any.Type?
    private var dateStrategy = DatabaseDateStrategy.text
    private var box: AnyObject?

    // Two calls rather than one that takes a closure to build the container: forming that
    // closure would look up the container type's generic metadata on every row.

    /// The container kept for `keyType` and `dateStrategy`, if any.
    @inline(__always)
    func container<Container>(keyedBy keyType: Any.Type, dateStrategy: DatabaseDateStrategy) -> Container? {
        guard let box, self.keyType == keyType, self.dateStrategy == dateStrategy else { return nil }
        return unsafeBitCast(box, to: Container.self)
    }

    /// Keeps `container`, built for `keyType` and `dateStrategy`, in place of the previous
    /// one. Returns whether that previous container is still held elsewhere.
    @inline(__always) @discardableResult
    mutating func keep<Container>(_ container: Container, keyedBy keyType: Any.Type, dateStrategy: DatabaseDateStrategy) -> Bool {
        guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size else { return false }
        let replacedIsShared = keptContainerIsShared
        self.keyType = keyType
        self.dateStrategy = dateStrategy
        box = unsafeBitCast(container, to: AnyObject.self)
        return replacedIsShared
    }

    /// Whether the kept container is also held outside this cache.
    var keptContainerIsShared: Bool {
        mutating get { box != nil && !isKnownUniquelyReferenced(&box) }
    }
}
