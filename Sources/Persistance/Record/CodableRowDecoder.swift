import Foundation

/// The library's Codable decoder for records: reads each coded property straight from its
/// column, at a position resolved once per statement (see `RowDecodingPlan`).
///
/// Unknown columns are ignored; a missing column decodes as nil for an optional property
/// and is an error naming the column for a non-optional one; NULL in a non-optional
/// property and a value of the wrong type are decoding errors naming the column.
struct CodableRowDecoder: Decoder {
    let plan: RowDecodingPlan
    /// Where the keyed container is kept from row to row.
    let containers: KeyedContainerCache

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        if let kept: KeyedDecodingContainer<Key> = containers.container(keyedBy: Key.self, dateStrategy: plan.dateStrategy) {
            return kept
        }
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(plan: plan))
        containers.keep(container, keyedBy: Key.self, dateStrategy: plan.dateStrategy, referringTo: plan)
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Self.notKeyed
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw Self.notKeyed
    }

    private static var notKeyed: DatabaseError {
        DatabaseError(kind: .decoding, message: "a record decodes from a keyed container, one key per column")
    }
}

/// The keyed container of `CodableRowDecoder`: one key, one column.
///
/// The standard library's box copies the container for every value decoded, so it holds
/// its plan without retaining it (an atomic increment and decrement per value otherwise):
/// the container cache that keeps it keeps the plan alive (see `KeyedContainerCache`).
struct RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let unretainedPlan: Unmanaged<RowDecodingPlan>

    init(plan: RowDecodingPlan) {
        unretainedPlan = Unmanaged.passUnretained(plan)
    }

    private var plan: RowDecodingPlan { unretainedPlan.takeUnretainedValue() }

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        plan.columnNames.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        unretainedPlan._withUnsafeGuaranteedRef { $0.position(of: key.stringValue) != nil }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let column = key.stringValue
        return unretainedPlan._withUnsafeGuaranteedRef { plan in
            guard let position = plan.position(of: column) else { return true }
            return plan.source.value(at: position).isNull
        }
    }

    // The common column types skip the dynamic type checks of the generic path.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let column = key.stringValue
        return try unretainedPlan._withUnsafeGuaranteedRef { plan in
            guard let position = plan.position(of: column) else { throw Self.missing(column, type) }
            // `Data` is the one type of this generic path read directly (a T? here would cost a metadata look-up).
            if T.self == Data.self, let data = plan.statement?.exactValue(Data.self, at: position) {
                return unsafeBitCast(data, to: T.self)
            }
            return try ColumnValueCoding.decode(
                type, from: plan.source.value(at: position), dateStrategy: plan.dateStrategy, column: column)
        }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let column = key.stringValue
        return try unretainedPlan._withUnsafeGuaranteedRef { plan in
            guard let position = plan.position(of: column) else { return nil }
            // `Data` is the one type of this generic path read directly (a T? here would cost a metadata look-up).
            if T.self == Data.self, let data = plan.statement?.exactValue(Data.self, at: position) {
                return unsafeBitCast(data, to: T.self)
            }
            let value = plan.source.value(at: position)
            if value.isNull { return nil }
            return try ColumnValueCoding.decode(type, from: value, dateStrategy: plan.dateStrategy, column: column)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw Self.nested(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw Self.nested(key)
    }

    func superDecoder() -> any Decoder {
        CodableRowDecoder(plan: plan, containers: KeyedContainerCache())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw Self.nested(key)
    }

    @inline(__always)
    private func required<T: DatabaseValueConvertible>(_ type: T.Type, _ key: Key) throws -> T {
        let column = key.stringValue
        return try unretainedPlan._withUnsafeGuaranteedRef { plan in
            guard let position = plan.position(of: column) else { throw Self.missing(column, type) }
            if let value = plan.statement?.exactValue(T.self, at: position) { return value }
            return try T.decode(plan.source.value(at: position), column: column)
        }
    }

    @inline(__always)
    private func optional<T: DatabaseValueConvertible>(_ type: T.Type, _ key: Key) throws -> T? {
        let column = key.stringValue
        return try unretainedPlan._withUnsafeGuaranteedRef { plan in
            guard let position = plan.position(of: column) else { return nil }
            if let value = plan.statement?.exactValue(T.self, at: position) { return value }
            let value = plan.source.value(at: position)
            if value.isNull { return nil }
            return try T.decode(value, column: column)
        }
    }

    private static func missing(_ column: String, _ type: Any.Type) -> DatabaseError {
        DatabaseError(kind: .columnNotFound, message: "no column for non-optional \(type)", column: column)
    }

    private static func nested(_ key: Key) -> DatabaseError {
        DatabaseError(
            kind: .decoding,
            message: "nested containers are not columns; make the property a Codable type to read it from JSON",
            column: key.stringValue)
    }
}
