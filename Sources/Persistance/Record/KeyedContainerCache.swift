/// The keyed container of the last record decoded or encoded, kept for the next one.
///
/// A record type asks for a container keyed by the same `CodingKey` type for every row,
/// and building one costs two generic metadata look-ups and an allocation. The standard
/// `KeyedDecodingContainer` and `KeyedEncodingContainer` are each one reference to the box
/// that wraps the concrete container, so that reference is kept, tagged with the key type
/// and the date strategy it was built for; a container of any other size is not kept.
///
/// The decoder's kept container refers to the decoder's plan without retaining it: the
/// standard library's box copies the container for every value decoded, and retaining
/// would cost an atomic increment and decrement each time. The cache keeps that `referent`
/// alive instead, and should a kept container outlive the cache (a record that stored its
/// container), keeps it alive for good.
///
/// The encoder's kept container retains the encoder's buffer, so a cache owned by the
/// buffer would make a reference cycle: the cache's owner is the operation.
@usableFromInline
final class KeyedContainerCache {
    @exclusivity(unchecked) private var keyType: Any.Type?
    @exclusivity(unchecked) private var dateStrategy = DatabaseDateStrategy.text
    @exclusivity(unchecked) private var box: AnyObject?
    /// What the kept container refers to without retaining it, if anything.
    @exclusivity(unchecked) private var referent: AnyObject?

    @usableFromInline
    init() {}

    deinit {
        keepReferentIfBoxEscaped()
    }

    // Two calls rather than one that takes a closure to build the container: forming that
    // closure would look up the container type's generic metadata on every row.

    /// The container kept for `keyType` and `dateStrategy`, if any.
    @inline(__always)
    func container<Container>(keyedBy keyType: Any.Type, dateStrategy: DatabaseDateStrategy) -> Container? {
        guard let box, self.keyType == keyType, self.dateStrategy == dateStrategy else { return nil }
        return unsafeBitCast(box, to: Container.self)
    }

    /// Keeps `container`, built for `keyType` and `dateStrategy`, which refers to `referent`
    /// without retaining it.
    @inline(__always)
    func keep<Container>(
        _ container: Container, keyedBy keyType: Any.Type, dateStrategy: DatabaseDateStrategy,
        referringTo referent: AnyObject? = nil
    ) {
        guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size else { return }
        keepReferentIfBoxEscaped()
        self.keyType = keyType
        self.dateStrategy = dateStrategy
        box = unsafeBitCast(container, to: AnyObject.self)
        self.referent = referent
    }

    /// Makes the referent of the kept container live for good when the container is also
    /// held elsewhere: it does not retain what it refers to.
    private func keepReferentIfBoxEscaped() {
        guard let referent, !isKnownUniquelyReferenced(&box) else { return }
        _ = Unmanaged.passRetained(referent)
    }
}
