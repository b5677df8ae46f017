/// The records of another table that refer to an owner: a team's players, each holding the
/// team's key in a column of its own. Made by `TableRecord.hasMany(_:using:)`.
///
/// Each owner gets an array of `Item`s, in the order of the association's query: the
/// records themselves, or, after `including(_:)`, each record with what a nested
/// association loads for it.
/// ```swift
/// static let players = hasMany(Player.self, using: Player.columns.teamID)
/// Team.players.order(Player.columns.points.desc).including(Player.scores)  // [(Player, [Score])]
/// ```
public struct HasManyAssociation<Owner: Record, Target: Record, Item>: Association {
    public let ownerKey: String
    @usableFromInline let records: AssociatedRecords<Target, Item>

    init(ownerKey: String, records: AssociatedRecords<Target, Item>) {
        self.ownerKey = ownerKey
        self.records = records
    }

    public var loadedWithoutRecords: [Item] { [] }

    @inlinable
    public func load(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: [Item]] {
        try records.grouped(forKeys: keys, in: conn)
    }

    /// Only the associated records for which `predicate` holds.
    public func filter(_ predicate: some SQLExpressible) -> HasManyAssociation {
        HasManyAssociation(ownerKey: ownerKey, records: records.withQuery { $0.filter(predicate) })
    }

    /// The associated records in this order, within each owner.
    public func order(_ orderings: any SQLOrderable...) -> HasManyAssociation {
        HasManyAssociation(ownerKey: ownerKey, records: records.withQuery { $0.order(orderings) })
    }

    /// Each associated record with what `nested` loads for it, in one more query for all of them.
    public func including<Nested: Association>(_ nested: Nested) -> HasManyAssociation<Owner, Target, (Target, Nested.Loaded)>
    where Nested.Owner == Target, Item == Target {
        HasManyAssociation<Owner, Target, (Target, Nested.Loaded)>(ownerKey: ownerKey, records: records.including(nested))
    }
}

/// The one record of another table that an owner refers to, or that refers to the owner:
/// a player's team (`TableRecord.belongsTo(_:using:)`), a team's stadium
/// (`TableRecord.hasOne(_:using:)`). Each owner gets an `Item?`: nil when there is no such
/// row (a NULL or dangling key).
public struct ToOneAssociation<Owner: Record, Target: Record, Item>: Association {
    public let ownerKey: String
    @usableFromInline let records: AssociatedRecords<Target, Item>

    init(ownerKey: String, records: AssociatedRecords<Target, Item>) {
        self.ownerKey = ownerKey
        self.records = records
    }

    public var loadedWithoutRecords: Item? { nil }

    @inlinable
    public func load(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: Item?] {
        try records.grouped(forKeys: keys, in: conn).mapValues { $0.first }
    }

    /// Only an associated record for which `predicate` holds; otherwise the owner gets nil.
    public func filter(_ predicate: some SQLExpressible) -> ToOneAssociation {
        ToOneAssociation(ownerKey: ownerKey, records: records.withQuery { $0.filter(predicate) })
    }

    /// The associated record with what `nested` loads for it, in one more query for all of them.
    public func including<Nested: Association>(_ nested: Nested) -> ToOneAssociation<Owner, Target, (Target, Nested.Loaded)>
    where Nested.Owner == Target, Item == Target {
        ToOneAssociation<Owner, Target, (Target, Nested.Loaded)>(ownerKey: ownerKey, records: records.including(nested))
    }
}
