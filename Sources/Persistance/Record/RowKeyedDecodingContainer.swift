import Foundation

/// The keyed container of `CodableRowDecoder`: one key, one column.
///
/// The standard library's box copies the container for every value decoded, so it holds
/// its decoder without retaining it (an atomic increment and decrement per value
/// otherwise): the decoder keeps the container, and should a record keep it too, the
/// decoder lives for good (see `CodableRowDecoder`).
struct RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let unretainedDecoder: Unmanaged<CodableRowDecoder>

    init(decoder: CodableRowDecoder) {
        unretainedDecoder = Unmanaged.passUnretained(decoder)
    }

    private var decoder: CodableRowDecoder { unretainedDecoder.takeUnretainedValue() }

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        decoder.columnNames.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        unretainedDecoder._withUnsafeGuaranteedRef { $0.position(of: key) != nil }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        unretainedDecoder._withUnsafeGuaranteedRef { decoder in
            guard let position = decoder.position(of: key) else { return true }
            return decoder.source.value(at: position).isNull
        }
    }

    // The common column types skip the dynamic type checks of the generic path.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try required(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try required(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try required(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try required(type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try required(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try unretainedDecoder._withUnsafeGuaranteedRef { decoder in
            guard let position = decoder.position(of: key) else { throw Self.missing(key, type) }
            // `Data` is the one type of this generic path read directly (a T? here would cost a metadata look-up).
            if T.self == Data.self, let data = decoder.statement?.exactValue(Data.self, at: position) {
                return unsafeBitCast(data, to: T.self)
            }
            return try ColumnValueCoding.decode(
                type, from: decoder.source.value(at: position), dateStrategy: decoder.dateStrategy,
                column: key.stringValue)
        }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try unretainedDecoder._withUnsafeGuaranteedRef { decoder in
            guard let position = decoder.position(of: key) else { return nil }
            // `Data` is the one type of this generic path read directly (a T? here would cost a metadata look-up).
            if T.self == Data.self, let data = decoder.statement?.exactValueOrNull(Data.self, at: position) {
                guard let data else { return nil }
                return unsafeBitCast(data, to: T.self)
            }
            let value = decoder.source.value(at: position)
            if value.isNull { return nil }
            return try ColumnValueCoding.decode(
                type, from: value, dateStrategy: decoder.dateStrategy, column: key.stringValue)
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
        decoder.superDecoder()
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw Self.nested(key)
    }

    @inline(__always)
    private func required<T: DatabaseValueConvertible>(_ type: T.Type, _ key: Key) throws -> T {
        try unretainedDecoder._withUnsafeGuaranteedRef { decoder in
            let position = decoder.position(of: key)
            if _fastPath(position != nil),
                let value = decoder.statement?.exactValue(T.self, at: position.unsafelyUnwrapped)
            {
                return value
            }
            return try Self.converted(type, at: position, key, decoder)
        }
    }

    @inline(__always)
    private func optional<T: DatabaseValueConvertible>(_ type: T.Type, _ key: Key) throws -> T? {
        try unretainedDecoder._withUnsafeGuaranteedRef { decoder in
            guard let position = decoder.position(of: key) else { return nil }
            if let value = decoder.statement?.exactValueOrNull(T.self, at: position) { return value }
            return try Self.convertedIfPresent(type, at: position, key, decoder)
        }
    }

    /// `required` when the column is missing or does not hold exactly a `T`: the value
    /// converted, or an error naming the column. Apart, out of the common path's way.
    @inline(never)
    private static func converted<T: DatabaseValueConvertible>(
        _ type: T.Type, at position: Int?, _ key: Key, _ decoder: CodableRowDecoder
    ) throws -> T {
        guard let position else { throw missing(key, type) }
        return try T.decode(decoder.source.value(at: position), column: key.stringValue)
    }

    /// `optional` when the column does not hold exactly a `T` or NULL: the value converted,
    /// or an error naming the column.
    @inline(never)
    private static func convertedIfPresent<T: DatabaseValueConvertible>(
        _ type: T.Type, at position: Int, _ key: Key, _ decoder: CodableRowDecoder
    ) throws -> T? {
        let value = decoder.source.value(at: position)
        if value.isNull { return nil }
        return try T.decode(value, column: key.stringValue)
    }

    private static func missing(_ key: Key, _ type: Any.Type) -> DatabaseError {
        DatabaseError(kind: .columnNotFound, message: "no column for non-optional \(type)", column: key.stringValue)
    }

    private static func nested(_ key: Key) -> DatabaseError {
        DatabaseError(
            kind: .decoding,
            message: "nested containers are not columns; make the property a Codable type to read it from JSON",
            column: key.stringValue)
    }
}
