/// A property of a record type, as a `crypt` rule names it: `<crypt class="MessageModel" property="content"/>`.
public struct DAOField: Sendable, Hashable, CustomStringConvertible {
    /// The record type's name.
    public var type: String
    /// The property's coded name (its column).
    public var property: String

    /// The field `property` of `type`.
    public init(type: String, property: String) {
        self.type = type
        self.property = property
    }

    public var description: String { "\(type).\(property)" }
}
