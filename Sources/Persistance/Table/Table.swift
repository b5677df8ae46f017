/// A table of records, declared once: name, columns, primary key, indexes, the record type
/// it stores, and optionally a validation hook. Declaring it never requires SQL.
///
/// ```swift
/// let players = Table<Player>("player", primaryKey: "id", columns: [
///     .integer("id", primaryKey: .autoincrement),
///     .text("name", notNull: true, unique: true),
///     .real("score", default: 0),
/// ], indexes: [.index("player_score", on: ["score"])])
///
/// var ann = Player(id: nil, name: "Ann", score: 10)
/// try players.insert(&ann, in: conn)       // creates the table on first use; sets ann.id
/// ```
///
/// Every operation takes the connection it runs in, so it joins whatever transaction is
/// open there. The table creates itself and its indexes (`IF NOT EXISTS`) the first time
/// an operation finds it missing, or when `create(in:)` is called. An inconsistent
/// declaration makes every operation throw an `.invalidTable` error.
public struct Table<Element: Record>: Sendable {
    /// A check run on each record before it is inserted, updated or upserted; throw to reject it.
    public typealias Validation = @Sendable (Element, TableWrite) throws -> Void

    /// The table's name, unquoted.
    public let name: String
    @usableFromInline let schema: TableSchema
    @usableFromInline let validation: Validation?

    /// Declares a table.
    ///
    /// - Parameters:
    ///   - name: The table's name; any text, it is always quoted.
    ///   - primaryKey: The primary key column; may be left out when a column declares
    ///     `primaryKey:`. Without any, rows are identified by their `rowid`.
    ///   - columns: The columns, in order.
    ///   - indexes: The indexes, created with the table.
    ///   - ignoresUnknownProperties: Whether writing a record drops the properties that have
    ///     no column in this table (a record type shared with other uses, or kept from an older
    ///     schema). By default such a property is an error (`.columnNotFound`), which catches
    ///     misspelled column names.
    ///   - validate: Called with each record before it is written; throw to reject it.
    public init(
        _ name: String, primaryKey: String? = nil, columns: [ColumnDefinition], indexes: [IndexDefinition] = [],
        ignoresUnknownProperties: Bool = false, validate: Validation? = nil
    ) {
        self.name = name
        schema = TableSchema(
            name: name, primaryKey: primaryKey, columns: columns, indexes: indexes,
            ignoresUnknownProperties: ignoresUnknownProperties)
        validation = validate
    }

    /// Whether writing a record drops the properties that have no column in this table.
    public var ignoresUnknownProperties: Bool { schema.ignoresUnknownProperties }

    /// The declared columns; the primary key column is marked even if only `primaryKey:` named it.
    public var columns: [ColumnDefinition] { schema.columns }

    /// The declared indexes, and the one made for each referencing column no declared index
    /// starts with (see `ForeignKey`).
    public var indexes: [IndexDefinition] { schema.indexes }

    /// The primary key column, or nil when rows are identified by their `rowid`.
    public var primaryKey: String? { schema.primaryKey }
}

/// The kind of write a table's validation hook is asked about.
public enum TableWrite: Sendable, Hashable {
    /// An insert of a new row.
    case insert
    /// An update of the row with the record's primary key.
    case update
    /// An upsert: an update of the row with the same unique key, or an insert.
    case upsert
}
