/// Encodes one property to find out whether it is a single value (stored as that value)
/// or a keyed or unkeyed structure (stored as JSON).
final class ColumnValueEncoder: Encoder, SingleValueEncodingContainer {
    private let dateStrategy: DatabaseDateStrategy
    private let column: String
    private var stored: DatabaseValue?
    private var isStructured = false

    init(dateStrategy: DatabaseDateStrategy, column: String) {
        self.dateStrategy = dateStrategy
        self.column = column
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The single value encoded, or nil when the value is structured and belongs in JSON.
    func singleValue() throws -> DatabaseValue? {
        if isStructured { return nil }
        guard let stored else {
            throw DatabaseError.encoding("the value encoded nothing", column: column)
        }
        return stored
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        isStructured = true
        return DiscardingEncoder().container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        isStructured = true
        return DiscardingEncoder().unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    func encodeNil() {
        stored = .null
    }

    func encode<T: Encodable>(_ value: T) throws {
        stored = try ColumnValueCoding.databaseValue(for: value, dateStrategy: dateStrategy, column: column)
    }
}
