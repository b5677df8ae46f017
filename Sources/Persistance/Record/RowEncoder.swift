import Foundation

/// The library's Codable encoder for records: writes each coded property straight into a
/// `RecordValueBuffer` slot, with no intermediate dictionary and no JSON for flat values.
///
/// Values that `DatabaseValueConvertible` covers are stored as it says (`Date` follows the
/// record's `DatabaseDateStrategy`); single-value types such as `String` enums are stored
/// as their value; nested structs, arrays and dictionaries are stored as JSON text.
///
/// One encoder serves every record of a write, passed as the same `Encoder`: a record
/// costs no allocation and no reference counting of the encoder's state.
@usableFromInline
final class RowEncoder: Encoder {
    let buffer: RecordValueBuffer
    /// The date strategy of the record being encoded.
    @exclusivity(unchecked) @usableFromInline var dateStrategy: DatabaseDateStrategy
    /// Where the keyed container is kept from record to record.
    @exclusivity(unchecked) private var containers = KeyedContainerCache()

    /// An encoder into `buffer`, for records of `dateStrategy` until told otherwise.
    @usableFromInline
    init(buffer: RecordValueBuffer, dateStrategy: DatabaseDateStrategy = .text) {
        self.buffer = buffer
        self.dateStrategy = dateStrategy
    }

    @usableFromInline
    var codingPath: [any CodingKey] { [] }
    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if containers.holds(keyedBy: Key.self, dateStrategy: dateStrategy) { return containers.kept() }
        let container = KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(buffer: buffer, dateStrategy: dateStrategy))
        containers.keep(container, keyedBy: Key.self, dateStrategy: dateStrategy)
        return container
    }

    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        buffer.fail(Self.notKeyed)
        return DiscardingEncoder().unkeyedContainer()
    }

    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        buffer.fail(Self.notKeyed)
        return DiscardingEncoder().singleValueContainer()
    }

    private static let notKeyed = DatabaseError.encoding(
        "a record encodes as a keyed container, one key per column; store other shapes in a property")
}

/// The keyed container of `RowEncoder`: one key, one column. It holds the encoder's buffer
/// and date strategy, not the encoder, whose container cache keeps this container.
struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let buffer: RecordValueBuffer
    let dateStrategy: DatabaseDateStrategy

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        try store(key) { try $0.set(.null, atSlot: $1) }
    }

    // The common column types go straight to the buffer's typed setters.
    mutating func encode(_ value: String, forKey key: Key) throws {
        try store(key) { try $0.set(text: value, atSlot: $1) }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try store(key) { try $0.set(integer: value, atSlot: $1) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encode(Int64(value), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try store(key) { try $0.set(real: value, atSlot: $1) }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(Int64(value ? 1 : 0), forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // `Data` is the one type of this generic path stored directly, as the decoder reads it.
        if T.self == Data.self {
            let data = unsafeBitCast(value, to: Data.self)
            return try store(key) { try $0.set(blob: data, atSlot: $1) }
        }
        let stored = try ColumnValueCoding.databaseValue(for: value, dateStrategy: dateStrategy, column: key.stringValue)
        try store(key) { try $0.set(stored, atSlot: $1) }
    }

    // Synthesized `encode(to:)` skips nil optionals through `encodeIfPresent`; a record
    // sets those columns to NULL instead, so that an update does store the nil.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try store(key) { try $0.set(text: value, atSlot: $1) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        try store(key) { try $0.set(integer: value, atSlot: $1) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        try encodeIfPresent(value.map(Int64.init), forKey: key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try store(key) { try $0.set(real: value, atSlot: $1) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        try encodeIfPresent(value.map { Int64($0 ? 1 : 0) }, forKey: key)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if T.self == Data.self {
            let data = unsafeDowncast(optionalDataReader, to: OptionalDataReader<T?>.self).data(in: value)
            return try store(key) { try $0.set(blob: data, atSlot: $1) }
        }
        try encodeAnyIfPresent(value, forKey: key)
    }

    /// `encodeIfPresent` of any other type; apart, because unwrapping a `T?` looks up its
    /// metadata on entry to the function that does it.
    @inline(never)
    private mutating func encodeAnyIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        buffer.fail(Self.nested(key))
        return DiscardingEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        buffer.fail(Self.nested(key))
        return DiscardingEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        RowEncoder(buffer: buffer, dateStrategy: dateStrategy)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        buffer.fail(Self.nested(key))
        return DiscardingEncoder()
    }

    /// Runs `set` with the buffer and the slot of `key`'s column; an error it throws without
    /// a column gets that one.
    @inline(__always)
    private func store(_ key: Key, _ set: (RecordValueBuffer, Int) throws -> Void) throws {
        do {
            try set(buffer, buffer.slot(for: key))
        } catch var error as DatabaseError where error.column == nil {
            error.column = key.stringValue
            throw error
        }
    }

    private static func nested(_ key: Key) -> DatabaseError {
        DatabaseError.encoding(
            "nested containers are not columns; make the property a Codable type to store it as JSON",
            column: key.stringValue)
    }
}

/// The one `OptionalDataReader`, of `Data?`.
private let optionalDataReader = OptionalDataReader<Data?>()

/// Reads a `Data?` that a generic function has as a `T?` (`T` being `Data`) where it lies.
/// Unwrapping or copying a `T?` there would look up the metadata of `T?` (a few hundred
/// instructions per value) and copy it through its value witnesses; a method of a generic
/// class takes its generic argument, here `Data?` itself, from the object's class.
private final class OptionalDataReader<Value>: Sendable {
    /// `value`, a `Data?`, as one. Not optimized: inlined, or with its unused `self`
    /// dropped, it would take `Value` from the caller, which looks it up.
    @_optimize(none)
    func data(in value: borrowing Value) -> Data? {
        withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: Optional<Data>.self) }
    }
}
