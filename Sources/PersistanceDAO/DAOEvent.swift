/// Something that happened to a DAO's table, reported to ``DAO/eventHandler`` (on whatever
/// thread it happened; keep the handler short and do not call the DAO back from it).
public enum DAOEvent: Sendable, Equatable {
    /// The table's stored version is older than the module's: it is about to be upgraded (or reset).
    case shouldUpgrade(table: String, from: DAOVersion, to: DAOVersion)
    /// Upgrading the table failed; everything the upgrade did was rolled back.
    case upgradeFailed(table: String, from: DAOVersion, to: DAOVersion, message: String)
    /// The initializer created the table.
    case tableCreated(table: String)
    /// The table was dropped (reset on upgrade, `deleteTable`, `deleteTables(matching:)`).
    case tableDeleted(table: String)
}
