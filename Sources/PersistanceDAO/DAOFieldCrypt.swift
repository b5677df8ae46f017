import Foundation
import Persistance

/// Applies a module's `crypt` rules: encrypts values bound from encrypted record fields and
/// decrypts the columns read into them.
///
/// The cipher sees exactly the value's bytes (text as UTF-8, binary data as it is, a number
/// as its text) and the column stores exactly what it returns, as a blob: what another
/// implementation of the same cipher stores, so existing encrypted data reads back. On the way
/// out the stored value is read whether it is TEXT or BLOB, and the property's declared type
/// says how to turn the plaintext back into a value.
struct DAOFieldCrypt: Sendable {
    let fields: Set<DAOField>
    let cipher: (any DAOFieldCipher)?

    /// `value`, encrypted when `field` is an encrypted field (NULL stays NULL).
    func encrypt(_ value: DatabaseValue, for field: DAOField) throws -> DatabaseValue {
        guard fields.contains(field), value != .null else { return value }
        let plaintext: Data
        switch value {
        case .null: return value
        case .text(let text): plaintext = Data(text.utf8)
        case .blob(let data): plaintext = data
        case .integer(let number): plaintext = Data(String(number).utf8)
        case .real(let number): plaintext = Data("\(number)".utf8)
        }
        return .blob(try cipher(for: field).encrypt(plaintext, for: field))
    }

    /// `value` as read from the column of `field`, decrypted when it is an encrypted field,
    /// and made a value of the property's declared `kind` (when unknown: text when the
    /// plaintext is UTF-8, binary data otherwise).
    /// - Throws: `decryptionFailed` when the cipher does not open the value, or its
    ///   plaintext is not a value of `kind`.
    func decrypt(_ value: DatabaseValue, for field: DAOField, as kind: DAOPropertyKind?) throws -> DatabaseValue {
        guard fields.contains(field) else { return value }
        let stored: Data
        switch value {
        case .null: return value
        case .blob(let data): stored = data
        case .text(let text): stored = Data(text.utf8)
        case .integer, .real:
            throw DAOError(.decryptionFailed, "\(field) holds a number, not encrypted data")
        }
        let cipher = try cipher(for: field)
        guard let plaintext = try? cipher.decrypt(stored, for: field) else {
            throw DAOError(.decryptionFailed, "\(field) does not decrypt: wrong key or damaged data")
        }
        let text = { String(bytes: plaintext, encoding: .utf8) }
        switch kind {
        case .blob?: return .blob(plaintext)
        case .text?:
            guard let text = text() else { break }
            return .text(text)
        case .integer?:
            guard let number = text().flatMap({ Int64($0) }) else { break }
            return .integer(number)
        case .real?:
            guard let number = text().flatMap({ Double($0) }) else { break }
            return .real(number)
        case nil:
            return text().map(DatabaseValue.text) ?? .blob(plaintext)
        }
        throw DAOError(.decryptionFailed, "\(field) decrypts to something that is not \(kind.map { "\($0)" } ?? "a value")")
    }

    private func cipher(for field: DAOField) throws -> any DAOFieldCipher {
        guard let cipher else {
            throw DAOError(
                .missingFieldCipher,
                "\(field) is encrypted, but the DAO has no field cipher: set dao.fieldCipher (e.g. AESGCMFieldCipher "
                    + "of PersistanceDAOCrypto) or adopt DAOFieldCipherProviding in the database's configuration target")
        }
        return cipher
    }
}
