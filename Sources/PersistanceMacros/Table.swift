/// Makes a struct a record with its own table, from its stored properties alone.
///
/// ```swift
/// @Table("player", indexes: [.index("player_score", on: ["score"])])
/// struct Player {
///     @Column(primaryKey: .autoincrement) var id: Int64?
///     @Column(unique: true) var name: String
///     var score: Double = 0
///     @Transient var isSelected = false
/// }
/// ```
/// generates an extension conforming the struct to `TableRecord`:
/// - `Player.table`, a `Table<Player>`: each stored property is a column, named as the
///   property (or as `@Column("name")` says), typed from the Swift type — integers and
///   `Bool` INTEGER, `Double` and `Float` REAL, `String`, `UUID`, `URL` and `Decimal` TEXT,
///   `Data` and `[UInt8]` BLOB, `Date` by the record's `databaseDateStrategy`, enums by
///   their raw value, other `Codable` values JSON TEXT — NOT NULL unless optional, with a
///   literal default as the column's DEFAULT. A property called `id` is the primary key
///   unless another is declared;
/// - by-index decoding (`FastDecodableRecord`) and typed encoding, with no `Codable` at run
///   time; NULL in a non-optional column reads the property's default, or is a decoding
///   error naming the column;
/// - `didInsert` that sets an integer primary key from the new row id;
/// - `Player.columns`, one `TypedColumn` per column, for queries that check value types at
///   compile time: `Player.columns.score > 5`.
///
/// - Parameters:
///   - name: The table's name; the type's name when left out.
///   - indexes: Indexes on several columns or unique ones; `@Column(indexed: true)` adds
///     a one-column index.
///   - columnNaming: How the columns of properties without `@Column("name")` are named:
///     as the property (`.asWritten`) or in snake case (`.snakeCase`: `createdAt` ↔
///     `created_at`, `userID` ↔ `user_id`). Queries, coding and `databaseColumns` follow.
@attached(
    extension, conformances: TableRecord,
    names: named(databaseColumns), named(init(statement:columns:)), named(init(row:columns:)), named(encode(into:)),
    named(didInsert(rowID:column:)), named(table), named(columns), named(Columns))
public macro Table(_ name: String? = nil, indexes: [IndexDefinition] = [], columnNaming: ColumnNaming = .asWritten) =
    #externalMacro(module: "PersistanceMacroPlugin", type: "TableMacro")

/// Declares how a property of a `@Table` struct is stored: its column name, whether it is
/// the primary key (`.plain` or `.autoincrement`), unique, or indexed, the record whose
/// primary key it refers to (a foreign key, indexed; see `ForeignKey`), and its SQL `DEFAULT`.
///
/// ```swift
/// @Column(primaryKey: .autoincrement) var id: Int64?
/// @Column("display_name", unique: true) var name: String
/// @Column(indexed: true) var score: Double
/// @Column(references: Team.self, onDelete: .cascade) var teamID: Int64
/// @Column(default: Priority.normal) var priority: Priority
/// @Column(defaultExpression: .currentTimestamp) var createdAt: Date?
/// ```
/// `default:` takes a value of the property's type (an enum case, `Data`, a `Date`, …) and
/// stores it as the record stores the property, as the column's `DEFAULT` literal: a row
/// written without the column, or a column added to a table that exists, gets it. A
/// literal initial value (`var score = 0`) is the column's default without saying so.
/// `defaultExpression:` is a default SQL computes for each row (see
/// `ColumnDefinition/DefaultExpression`).
@attached(peer)
public macro Column(
    _ name: String? = nil, primaryKey: ColumnDefinition.PrimaryKey? = nil, unique: Bool = false, indexed: Bool = false,
    references: (any TableRecord.Type)? = nil, onDelete: ForeignKey.Action = .noAction,
    onUpdate: ForeignKey.Action = .noAction, default: Any? = nil,
    defaultExpression: ColumnDefinition.DefaultExpression? = nil
) = #externalMacro(module: "PersistanceMacroPlugin", type: "ColumnAttributeMacro")

/// Declares a property of a `@Table` struct stored through a custom `ColumnCoder`.
///
/// ```swift
/// @Column(as: CommaSeparated.self) var tags: [String]
/// ```
@attached(peer)
public macro Column<Coder: ColumnCoder>(
    _ name: String? = nil, as coder: Coder.Type, primaryKey: ColumnDefinition.PrimaryKey? = nil,
    unique: Bool = false, indexed: Bool = false, references: (any TableRecord.Type)? = nil,
    onDelete: ForeignKey.Action = .noAction, onUpdate: ForeignKey.Action = .noAction,
    default: Coder.Value? = nil
) = #externalMacro(module: "PersistanceMacroPlugin", type: "ColumnAttributeMacro")

/// Keeps a property of a `@Table` struct out of the table: it is not stored, and records
/// read from rows start with its default value.
@attached(peer)
public macro Transient() = #externalMacro(module: "PersistanceMacroPlugin", type: "ColumnAttributeMacro")
