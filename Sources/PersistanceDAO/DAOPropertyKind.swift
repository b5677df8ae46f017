import Foundation

/// The storage class a record property is declared with, which turns a decrypted field's
/// plaintext back into a value.
enum DAOPropertyKind: String, Sendable {
    /// `String`.
    case text
    /// `Data`.
    case blob
    /// Integers and `Bool`.
    case integer
    /// `Double` and `Float`.
    case real

    /// The declared kinds of `type`'s properties, by coded name, as far as its
    /// `init(from:)` reveals them: it is run once on a decoder that notes the type asked for
    /// each key and answers a placeholder. Properties of other types (and any after one, or
    /// after a check the placeholders fail) are left out.
    static func kinds<T: Decodable>(of type: T.Type) -> [String: DAOPropertyKind] {
        let probe = Probe()
        _ = try? T(from: probe)
        return probe.kinds
    }

    private struct Unknown: Error {}

    private final class Probe: Decoder {
        var kinds: [String: DAOPropertyKind] = [:]
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed(probe: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unknown() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Unknown() }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let probe: Probe
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        /// Notes `kind` for `key` and answers `placeholder`.
        private func note<T>(_ kind: DAOPropertyKind, _ key: Key, _ placeholder: T) -> T {
            probe.kinds[key.stringValue] = kind
            return placeholder
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { note(.integer, key, false) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { note(.text, key, "") }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { note(.real, key, 0) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { note(.real, key, 0) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { note(.integer, key, 0) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { note(.integer, key, 0) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { note(.integer, key, 0) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { note(.integer, key, 0) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { note(.integer, key, 0) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { note(.integer, key, 0) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { note(.integer, key, 0) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { note(.integer, key, 0) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { note(.integer, key, 0) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { note(.integer, key, 0) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if let data = Data() as? T { return note(.blob, key, data) }
            throw Unknown()
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> { throw Unknown() }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Unknown() }
        func superDecoder() throws -> any Decoder { throw Unknown() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unknown() }
    }
}
