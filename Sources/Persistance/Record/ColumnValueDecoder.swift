/// Decodes one property from the value of one column, for types that decode a single
/// value (`String` enums, wrappers). A request for a keyed or unkeyed container throws
/// `NeedsJSON`: such values are stored as JSON text.
struct ColumnValueDecoder: Decoder, SingleValueDecodingContainer {
    /// Thrown when the type decodes a structure, which the column holds as JSON.
    struct NeedsJSON: Error {}

    let value: DatabaseValue
    let dateStrategy: DatabaseDateStrategy
    let column: String

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw NeedsJSON()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw NeedsJSON()
    }

    func singleValueContainer() -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool {
        value.isNull
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ColumnValueCoding.decode(type, from: value, dateStrategy: dateStrategy, column: column)
    }
}
