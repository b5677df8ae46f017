/// A relation from the records of one table to the records of another, declared once on the
/// record (see `TableRecord.hasMany(_:using:)`, `TableRecord.belongsTo(_:using:)`,
/// `TableRecord.hasOne(_:using:)`), and loaded for many owners at once by
/// `Query.including(_:)`.
///
/// ```swift
/// extension Team {
///     static let players = hasMany(Player.self, using: Player.columns.teamID)
/// }
/// let teams = try Team.table.query().including(Team.players).fetchAll(conn)  // [(Team, [Player])]
/// ```
/// Loading runs one query per association level for all the owners together, whatever
/// their number: `… WHERE "teamID" IN (?, ?, …)` with the owners' keys bound.
public protocol Association<Owner>: Sendable {
    /// The record the association starts from.
    associatedtype Owner: Record
    /// What each owner gets: an array for a to-many association, an optional for a to-one.
    associatedtype Loaded

    /// The owner's column whose value finds the associated records.
    var ownerKey: String { get }

    /// What an owner gets when no record is associated with it: `[]` or nil.
    var loadedWithoutRecords: Loaded { get }

    /// The associated values of the owners whose `ownerKey` holds `keys`, by key, read with
    /// one query per level (more only when the keys outnumber SQLite's parameter limit).
    /// A key without associated records is absent.
    func load(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: Loaded]
}
