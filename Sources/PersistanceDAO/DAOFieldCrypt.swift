import Foundation
import Persistance

/// Applies a module's `crypt` rules: encrypts values bound from encrypted fields and
/// decrypts the columns read into them. The stored value is a blob holding the cipher's
/// output for a one-byte type tag followed by the value's bytes, so every storage class
/// comes back as it went in.
struct DAOFieldCrypt: Sendable {
    let fields: Set<DAOField>
    let cipher: (any DAOFieldCipher)?

    private enum Tag: UInt8 {
        case text = 0, blob = 1, integer = 2, real = 3
    }

    /// `value`, encrypted when `field` is an encrypted field (NULL stays NULL).
    func encrypt(_ value: DatabaseValue, for field: DAOField) throws -> DatabaseValue {
        guard fields.contains(field), value != .null else { return value }
        guard let cipher else {
            throw DAOError(.missingFieldKey, "\(field) is encrypted, but no field cipher or key is configured")
        }
        var plaintext = Data()
        switch value {
        case .null: return value
        case .text(let text): plaintext = Data([Tag.text.rawValue]) + Data(text.utf8)
        case .blob(let data): plaintext = Data([Tag.blob.rawValue]) + data
        case .integer(let number): plaintext = Data([Tag.integer.rawValue]) + Self.bytes(of: UInt64(bitPattern: number))
        case .real(let number): plaintext = Data([Tag.real.rawValue]) + Self.bytes(of: number.bitPattern)
        }
        return .blob(try cipher.encrypt(plaintext, for: field))
    }

    /// `value` as read from the column of `field`, decrypted when it is an encrypted field.
    /// - Throws: `decryptionFailed` when the value is not a blob the cipher opens.
    func decrypt(_ value: DatabaseValue, for field: DAOField) throws -> DatabaseValue {
        guard fields.contains(field), value != .null else { return value }
        guard let cipher else {
            throw DAOError(.missingFieldKey, "\(field) is encrypted, but no field cipher or key is configured")
        }
        guard case .blob(let stored) = value, let plaintext = try? cipher.decrypt(stored, for: field),
            let tag = plaintext.first.flatMap(Tag.init(rawValue:))
        else {
            throw DAOError(.decryptionFailed, "\(field) does not decrypt: wrong key or damaged data")
        }
        let body = plaintext.dropFirst()
        switch tag {
        case .text: return .text(String(decoding: body, as: UTF8.self))
        case .blob: return .blob(Data(body))
        case .integer, .real:
            guard body.count == 8 else { throw DAOError(.decryptionFailed, "\(field) decrypts to damaged data") }
            let bits = body.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return tag == .integer ? .integer(Int64(bitPattern: bits)) : .real(Double(bitPattern: bits))
        }
    }

    private static func bytes(of value: UInt64) -> Data {
        Data((0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
    }
}
