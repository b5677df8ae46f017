/// One column of a table declaration: name, type affinity, primary key, constraints, default.
///
/// ```swift
/// .integer("id", primaryKey: .autoincrement)
/// .text("name", notNull: true, unique: true)
/// .real("score", default: 0)
/// ```
/// A default applies whenever the table writes NULL into the column: a nil property on
/// insert, and a value set to nil by an update.
public struct ColumnDefinition: Sendable, Hashable {
    /// SQLite's type affinity of a column.
    public enum Affinity: String, Sendable, Hashable {
        /// Prefers 64-bit integers; an INTEGER primary key is the row id.
        case integer = "INTEGER"
        /// Prefers 8-byte floating point.
        case real = "REAL"
        /// Prefers text; numbers stored into it become text.
        case text = "TEXT"
        /// Stores values as they are given.
        case blob = "BLOB"
        /// Prefers integers, then reals, for values that look like numbers.
        case numeric = "NUMERIC"
    }

    /// The Swift type a column's values come from, for engines whose column types are richer
    /// than SQLite's affinities (PostgreSQL's `SMALLINT`, `UUID`, `TIMESTAMPTZ`, `JSONB`…).
    /// SQLite ignores it; the values cross the portable API the same way whatever it is.
    public enum ValueType: String, Sendable, Hashable {
        /// `Bool`.
        case bool
        /// An integer that fits 16 bits (`Int16`, `Int8`, `UInt8`).
        case int16
        /// An integer that fits 32 bits (`Int32`, `UInt16`).
        case int32
        /// Any other integer.
        case int64
        /// A floating-point number.
        case double
        /// Text (`String`, `URL`, `Character`).
        case string
        /// Bytes (`Data`, `[UInt8]`).
        case data
        /// A `Date` stored as SQLite's date text.
        case date
        /// A `UUID`.
        case uuid
        /// A `Decimal`.
        case decimal
        /// Any other `Encodable` value, stored as JSON text.
        case json
    }

    /// How a column is the table's primary key.
    public enum PrimaryKey: Sendable, Hashable {
        /// A plain primary key. On an INTEGER column it is the row id: a new row without
        /// one gets the highest id plus one, so ids of deleted rows may come back.
        case plain
        /// An INTEGER primary key that never reuses an id, even of deleted rows
        /// (`AUTOINCREMENT`); `truncate` starts it over.
        case autoincrement
    }

    /// The column's name, unquoted.
    public var name: String
    /// The column's type affinity.
    public var affinity: Affinity
    /// The Swift type of the column's values, when the declaration knows it (columns made
    /// with `property(_:of:…)` and by `@Table`); nil for plain `.integer(…)`, `.text(…)`….
    public var valueType: ValueType?
    /// Whether, and how, the column is the primary key.
    public var primaryKey: PrimaryKey?
    /// Whether NULL is rejected (`NOT NULL`).
    public var isNotNull: Bool
    /// Whether two rows may not share a value (`UNIQUE`).
    public var isUnique: Bool
    /// The value stored in place of NULL (`DEFAULT`).
    public var defaultValue: DatabaseValue?
    /// The SQL expression computed in place of NULL on insert (`DEFAULT (…)`); see
    /// `defaulting(to:)`.
    public var defaultExpression: DefaultExpression?
    /// The row of another table the column refers to (`REFERENCES`); see `references(_:column:onDelete:onUpdate:)`.
    public var foreignKey: ForeignKey?

    /// A column of any affinity.
    public init(
        _ name: String, affinity: Affinity, primaryKey: PrimaryKey? = nil,
        notNull: Bool = false, unique: Bool = false, default defaultValue: DatabaseValue? = nil
    ) {
        self.name = name
        self.affinity = affinity
        self.primaryKey = primaryKey
        self.isNotNull = notNull
        self.isUnique = unique
        self.defaultValue = defaultValue
    }

    /// An INTEGER column.
    public static func integer(
        _ name: String, primaryKey: PrimaryKey? = nil, notNull: Bool = false, unique: Bool = false,
        default defaultValue: DatabaseValue? = nil
    ) -> ColumnDefinition {
        ColumnDefinition(
            name, affinity: .integer, primaryKey: primaryKey, notNull: notNull, unique: unique, default: defaultValue)
    }

    /// A REAL column.
    public static func real(
        _ name: String, notNull: Bool = false, unique: Bool = false, default defaultValue: DatabaseValue? = nil
    ) -> ColumnDefinition {
        ColumnDefinition(name, affinity: .real, notNull: notNull, unique: unique, default: defaultValue)
    }

    /// A TEXT column.
    public static func text(
        _ name: String, primaryKey: PrimaryKey? = nil, notNull: Bool = false, unique: Bool = false,
        default defaultValue: DatabaseValue? = nil
    ) -> ColumnDefinition {
        ColumnDefinition(
            name, affinity: .text, primaryKey: primaryKey, notNull: notNull, unique: unique, default: defaultValue)
    }

    /// A BLOB column.
    public static func blob(
        _ name: String, notNull: Bool = false, unique: Bool = false, default defaultValue: DatabaseValue? = nil
    ) -> ColumnDefinition {
        ColumnDefinition(name, affinity: .blob, notNull: notNull, unique: unique, default: defaultValue)
    }

    /// A NUMERIC column.
    public static func numeric(
        _ name: String, notNull: Bool = false, unique: Bool = false, default defaultValue: DatabaseValue? = nil
    ) -> ColumnDefinition {
        ColumnDefinition(name, affinity: .numeric, notNull: notNull, unique: unique, default: defaultValue)
    }
}
