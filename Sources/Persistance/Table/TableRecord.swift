/// A record that declares its own table and typed columns: what the `@Table` macro
/// generates, from the struct alone.
///
/// ```swift
/// @Table("player")
/// struct Player {
///     @Column(primaryKey: .autoincrement) var id: Int64?
///     var name: String
///     var score: Double = 0
/// }
/// try Player.table.insert(&ann, in: conn)
/// try Player.table.query().filter(Player.columns.score > 5).fetchAll(conn)
/// ```
public protocol TableRecord: FastDecodableRecord {
    /// The typed references to the record's columns (`Player.columns.score`).
    associatedtype Columns: Sendable

    /// Reads a record from `row`, where `columns[i]` is the position of the column named
    /// `databaseColumns[i]`: the portable API's rows, read with the same conversions and
    /// errors as `init(statement:columns:)`.
    init(row: borrowing Row, columns: borrowing [Int]) throws

    /// The table the record is declared for: its name, columns, primary key and indexes.
    static var table: Table<Self> { get }

    /// The record's columns, typed by the Swift type of their property.
    static var columns: Columns { get }
}
