import Crypto
import Foundation
import PersistanceDAO

/// An AES-GCM field cipher (authenticated): a fresh random nonce per value, the field's name
/// as associated data (a value copied to another field does not decrypt).
/// Stored form: nonce (12 bytes) + ciphertext + tag (16 bytes).
///
/// It lives in the `PersistanceDAOCrypto` product, so that apps using `PersistanceDAO` without
/// `crypt` rules never build swift-crypto:
///
/// ```swift
/// dao.fieldCipher = AESGCMFieldCipher(secret: "chat-fields-2025")
/// ```
public struct AESGCMFieldCipher: DAOFieldCipher {
    /// The key's bytes: `SymmetricKey` is not `Sendable`, so one is made per operation.
    private let keyBytes: Data

    /// A cipher with a 256-bit key derived from `secret` (HKDF-SHA256): the same secret
    /// always gives the same key.
    public init(secret: String) {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)),
            info: Data("persistance-dao-field".utf8), outputByteCount: 32)
        keyBytes = key.withUnsafeBytes { Data($0) }
    }

    /// A cipher with `key` (128, 192 or 256 bits).
    public init(key: SymmetricKey) {
        keyBytes = key.withUnsafeBytes { Data($0) }
    }

    /// `plaintext` sealed with a fresh nonce, `field`'s name authenticated with it.
    public func encrypt(_ plaintext: Data, for field: DAOField) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: SymmetricKey(data: keyBytes), authenticating: Data(field.description.utf8)).combined else {
            throw DAOError(.invalidCall, "AES-GCM produced no combined form")
        }
        return combined
    }

    /// The plaintext of `ciphertext`; throws when it was not sealed with this key for `field`,
    /// or is damaged.
    public func decrypt(_ ciphertext: Data, for field: DAOField) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: ciphertext), using: SymmetricKey(data: keyBytes), authenticating: Data(field.description.utf8))
    }
}
