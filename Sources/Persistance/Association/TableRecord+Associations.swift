// Declaring associations on a record: each is a static property of the owner, made once.
//
// ```swift
// extension Team {
//     static let players = hasMany(Player.self, using: Player.columns.teamID)
//     static let scores = hasMany(Score.self, through: players, using: Player.scores)
// }
// extension Player {
//     static let team = belongsTo(Team.self, using: Player.columns.teamID)
// }
// ```

extension TableRecord {
    /// The `Child` records whose `foreignKey` column holds this record's primary key (or
    /// its `rowid` when the table has none).
    public static func hasMany<Child: TableRecord, Key>(
        _ child: Child.Type, using foreignKey: TypedColumn<Child, Key>
    ) -> HasManyAssociation<Self, Child, Child> {
        HasManyAssociation(
            ownerKey: table.primaryKey ?? "rowid",
            records: AssociatedRecords(query: Child.table.query(), keyColumn: foreignKey.name))
    }

    /// The one `Child` record whose `foreignKey` column holds this record's primary key
    /// (the first, if several do).
    public static func hasOne<Child: TableRecord, Key>(
        _ child: Child.Type, using foreignKey: TypedColumn<Child, Key>
    ) -> ToOneAssociation<Self, Child, Child> {
        ToOneAssociation(
            ownerKey: table.primaryKey ?? "rowid",
            records: AssociatedRecords(query: Child.table.query(), keyColumn: foreignKey.name))
    }

    /// The `Parent` record whose primary key this record's `foreignKey` column holds; nil
    /// when it is NULL or names no row.
    public static func belongsTo<Parent: TableRecord, Key>(
        _ parent: Parent.Type, using foreignKey: TypedColumn<Self, Key>
    ) -> ToOneAssociation<Self, Parent, Parent> {
        ToOneAssociation(
            ownerKey: foreignKey.name,
            records: AssociatedRecords(query: Parent.table.query(), keyColumn: Parent.table.primaryKey ?? "rowid"))
    }

    /// The records reached from each `Middle` record of `through` by `step`, a to-many one:
    /// a team's scores through its players.
    public static func hasMany<Middle: Record, Target: Record, Item>(
        _ target: Target.Type, through: HasManyAssociation<Self, Middle, Middle>,
        using step: HasManyAssociation<Middle, Target, Item>
    ) -> HasManyThroughAssociation<Self, Item> {
        HasManyThroughAssociation(through: through, using: step)
    }

    /// The records reached from each `Middle` record of `through` by `step`, a to-one one:
    /// a student's courses through their enrollments.
    public static func hasMany<Middle: Record, Target: Record, Item>(
        _ target: Target.Type, through: HasManyAssociation<Self, Middle, Middle>,
        using step: ToOneAssociation<Middle, Target, Item>
    ) -> HasManyThroughAssociation<Self, Item> {
        HasManyThroughAssociation(through: through, using: step)
    }
}
