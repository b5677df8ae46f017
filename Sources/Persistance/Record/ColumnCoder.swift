/// A custom conversion between a property's Swift value and its column, for `@Column(as:)`
/// on a property of a `@Table` record (or for hand-written records).
///
/// ```swift
/// enum CommaSeparated: ColumnCoder {
///     static let affinity = ColumnDefinition.Affinity.text
///     static func databaseValue(for tags: [String]) throws -> DatabaseValue { .text(tags.joined(separator: ",")) }
///     static func value(from stored: DatabaseValue, column: String) throws -> [String] {
///         try String.decode(stored, column: column).split(separator: ",").map(String.init)
///     }
/// }
/// ```
/// On an optional property, NULL reads as nil and nil stores NULL without calling the coder.
public protocol ColumnCoder {
    /// The Swift type of the property.
    associatedtype Value

    /// The column's type affinity in the table declaration.
    static var affinity: ColumnDefinition.Affinity { get }

    /// The value to store for `value`; throw a `DatabaseError` of kind `.encoding` when it cannot be stored.
    static func databaseValue(for value: Value) throws -> DatabaseValue

    /// The Swift value for the stored value of `column`; throw a decoding error naming `column`
    /// (`DatabaseError.decoding`) when it holds none.
    static func value(from stored: DatabaseValue, column: String) throws -> Value
}
