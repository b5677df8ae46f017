/// What tells one coding key from another without asking for its `stringValue`: the key's
/// type and its one byte of value, for the keys that are at most one byte with no
/// references, as every synthesized `CodingKeys` enum of up to 256 cases is.
///
/// A key's `stringValue` is a function of its value, so two keys with the same identity
/// name the same column. Comparing identities spares the encoder and the decoder a
/// witness call and a string release per value: the cost of finding a column is then
/// that of comparing two words. Other keys have no identity (`none`) and are found by name.
@usableFromInline
struct CodingKeyIdentity: Equatable, Sendable {
    /// The key's type; nil for none.
    @usableFromInline let type: ObjectIdentifier?
    /// The key's one byte of value (0 for a key of no bytes: a one-case enum).
    @usableFromInline let value: UInt8

    /// No identity: the key is found by its name.
    @inlinable static var none: CodingKeyIdentity { CodingKeyIdentity(type: nil, value: 0) }

    @usableFromInline
    init(type: ObjectIdentifier?, value: UInt8) {
        self.type = type
        self.value = value
    }

    /// The identity of `key`, or `none` when its bits do not identify it (it is longer than
    /// one byte or holds a reference).
    @inline(__always)
    init<Key: CodingKey>(_ key: borrowing Key) {
        guard _isPOD(Key.self), MemoryLayout<Key>.size <= 1 else {
            self = .none
            return
        }
        type = ObjectIdentifier(Key.self)
        value = MemoryLayout<Key>.size == 0 ? 0 : unsafeBitCast(copy key, to: UInt8.self)
    }
}
