/// The library's Codable encoder for records: writes each coded property straight into a
/// `RecordValueBuffer` slot, with no intermediate dictionary and no JSON for flat values.
///
/// Values that `DatabaseValueConvertible` covers are stored as it says (`Date` follows the
/// record's `DatabaseDateStrategy`); single-value types such as `String` enums are stored
/// as their value; nested structs, arrays and dictionaries are stored as JSON text.
struct RowEncoder: Encoder {
    let buffer: RecordValueBuffer
    let dateStrategy: DatabaseDateStrategy

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        buffer.fail(Self.notKeyed)
        return DiscardingEncoder().unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        buffer.fail(Self.notKeyed)
        return DiscardingEncoder().singleValueContainer()
    }

    private static let notKeyed = DatabaseError.encoding(
        "a record encodes as a keyed container, one key per column; store other shapes in a property")
}

/// The keyed container of `RowEncoder`: one key, one column.
struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RowEncoder

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        try encoder.buffer.set(.null, forColumn: key.stringValue)
    }

    // The common column types skip the dynamic type checks of the generic path.
    mutating func encode(_ value: String, forKey key: Key) throws { try store(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try store(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try store(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try store(value, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try store(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let column = key.stringValue
        let stored = try ColumnValueCoding.databaseValue(for: value, dateStrategy: encoder.dateStrategy, column: column)
        try encoder.buffer.set(stored, forColumn: column)
    }

    // Synthesized `encode(to:)` skips nil optionals through `encodeIfPresent`; a record
    // sets those columns to NULL instead, so that an update does store the nil.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try storeIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try storeIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try storeIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try storeIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try storeIfPresent(value, key) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.buffer.fail(Self.nested(key))
        return DiscardingEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.buffer.fail(Self.nested(key))
        return DiscardingEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.buffer.fail(Self.nested(key))
        return DiscardingEncoder()
    }

    @inline(__always)
    private func store(_ value: some DatabaseValueConvertible, _ key: Key) throws {
        let column = key.stringValue
        let stored: DatabaseValue
        do {
            stored = try value.databaseValue
        } catch var error as DatabaseError {
            error.column = column
            throw error
        }
        try encoder.buffer.set(stored, forColumn: column)
    }

    @inline(__always)
    private func storeIfPresent(_ value: (some DatabaseValueConvertible)?, _ key: Key) throws {
        guard let value else { return try encoder.buffer.set(.null, forColumn: key.stringValue) }
        try store(value, key)
    }

    private static func nested(_ key: Key) -> DatabaseError {
        DatabaseError.encoding(
            "nested containers are not columns; make the property a Codable type to store it as JSON",
            column: key.stringValue)
    }
}
