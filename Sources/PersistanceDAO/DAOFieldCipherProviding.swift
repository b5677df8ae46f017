import Persistance

/// A configuration target that also answers the cipher of the DAO's encrypted fields.
///
/// A ``DAO`` whose module has `crypt` rules looks up the target of its database's name in
/// the `TargetRegistry` it is given; when the target adopts this protocol, the cipher it
/// returns becomes the DAO's ``DAO/fieldCipher``. With the `PersistanceDAOCrypto` product:
///
/// ```swift
/// import PersistanceDAOCrypto
///
/// struct Target_chat: ConfigurationTarget, DAOFieldCipherProviding {
///     func fieldCipher(for database: String) -> (any DAOFieldCipher)? {
///         AESGCMFieldCipher(secret: "chat-fields-2025")
///     }
/// }
/// ```
public protocol DAOFieldCipherProviding: ConfigurationTarget {
    /// The cipher the encrypted fields of `database` use, or nil for none.
    func fieldCipher(for database: String) -> (any DAOFieldCipher)?
}
