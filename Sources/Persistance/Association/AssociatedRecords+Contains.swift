extension AssociatedRecords {
    /// `"ownerKey" IN (SELECT "keyColumn" FROM target WHERE …)`: true for the owners that have
    /// an associated record for which `predicate` holds (and the association's own filters).
    func owners(withKey ownerKey: String, where predicate: some SQLExpressible) -> SQLExpression {
        Column(ownerKey).in(query.filter(predicate).select(Column(keyColumn)))
    }
}

extension HasManyAssociation {
    /// True for the owners that have at least one associated record for which `predicate`
    /// holds: `Team.table.query().filter(Team.players.contains(where: Player.columns.points > 20))`.
    /// Negate it (`!`) for the owners that have none.
    public func contains(where predicate: some SQLExpressible) -> SQLExpression {
        records.owners(withKey: ownerKey, where: predicate)
    }
}

extension ToOneAssociation {
    /// True for the owners whose associated record exists and satisfies `predicate`:
    /// `Player.table.query().filter(Player.team.contains(where: Team.columns.name == "Reds"))`.
    public func contains(where predicate: some SQLExpressible) -> SQLExpression {
        records.owners(withKey: ownerKey, where: predicate)
    }
}
