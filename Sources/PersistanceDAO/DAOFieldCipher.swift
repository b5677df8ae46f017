import Foundation

/// Encrypts and decrypts the fields a module's `crypt` rules name.
///
/// Plug one into ``DAO/fieldCipher`` (the seed's `encryptMethod`/`decryptMethod`): the
/// `PersistanceDAOCrypto` product's `AESGCMFieldCipher`, your own, or one built from two
/// closures with ``DAOClosureFieldCipher``. `decrypt` must throw when the data is not its own (a wrong key,
/// damaged bytes): the DAO reports that as `DAOError.Kind.decryptionFailed`.
public protocol DAOFieldCipher: Sendable {
    /// The stored form of `plaintext`, a value of `field`.
    func encrypt(_ plaintext: Data, for field: DAOField) throws -> Data
    /// The plaintext of `ciphertext`, a stored value of `field`.
    func decrypt(_ ciphertext: Data, for field: DAOField) throws -> Data
}

/// A field cipher made of two closures.
public struct DAOClosureFieldCipher: DAOFieldCipher {
    private let encryptBody: @Sendable (Data, DAOField) throws -> Data
    private let decryptBody: @Sendable (Data, DAOField) throws -> Data

    /// A cipher that encrypts with `encrypt` and decrypts with `decrypt`.
    public init(
        encrypt: @escaping @Sendable (Data, DAOField) throws -> Data,
        decrypt: @escaping @Sendable (Data, DAOField) throws -> Data
    ) {
        encryptBody = encrypt
        decryptBody = decrypt
    }

    public func encrypt(_ plaintext: Data, for field: DAOField) throws -> Data { try encryptBody(plaintext, field) }
    public func decrypt(_ ciphertext: Data, for field: DAOField) throws -> Data { try decryptBody(ciphertext, field) }
}
