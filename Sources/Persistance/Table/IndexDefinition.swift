/// One index of a table declaration: `.index("player_score", on: ["score"], unique: false)`.
public struct IndexDefinition: Sendable, Hashable {
    /// The index's name, unquoted.
    public var name: String
    /// The indexed columns, in order.
    public var columns: [String]
    /// Whether the index rejects two rows with the same values (`UNIQUE`).
    public var isUnique: Bool

    /// An index named `name` on `columns`.
    public init(_ name: String, on columns: [String], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = unique
    }

    /// An index named `name` on `columns`.
    public static func index(_ name: String, on columns: [String], unique: Bool = false) -> IndexDefinition {
        IndexDefinition(name, on: columns, unique: unique)
    }
}
