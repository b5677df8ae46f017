/// A `<map>`: the record type a row becomes, and the columns whose property has another name.
struct DAOMap: Sendable {
    var id: String
    /// The registered record type's name.
    var type: String
    /// Column name → property name, for the columns listed with `<result property column>`.
    var propertyForColumn: [String: String]
}
