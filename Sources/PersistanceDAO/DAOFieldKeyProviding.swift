import Persistance

/// A configuration target that also answers the key of the DAO's encrypted fields.
///
/// A ``DAO`` whose module has `crypt` rules looks up the target of its database's name in
/// the `TargetRegistry` it is given; when the target adopts this protocol, its key keys an
/// ``AESGCMFieldCipher``:
///
/// ```swift
/// struct Target_chat: ConfigurationTarget, DAOFieldKeyProviding {
///     func fieldEncryptionKey(for database: String) -> String? { "chat-fields-2025" }
/// }
/// ```
public protocol DAOFieldKeyProviding: ConfigurationTarget {
    /// The secret the fields of `database` are encrypted with, or nil for none.
    func fieldEncryptionKey(for database: String) -> String?
}
