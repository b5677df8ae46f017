import Persistance

/// What a DAO method returns, shaped by its `result` attribute.
public enum DAOResult: Sendable {
    /// A write without `result` that inserted no row: the number of rows it changed (summed
    /// over `foreach` and steps).
    case done(changes: Int)
    /// A write without `result` that inserted a row: the number of rows it changed, and the
    /// rowid of the last row it inserted, read in the same write (unlike the racy
    /// ``DAO/lastInsertRowID()``, never another call's row). `decode(Int64.self)` returns it.
    case inserted(changes: Int, rowID: Int64)
    /// A scalar result (`int`, `string`, …): the first column of the first row, `.null` without a row.
    case value(DatabaseValue)
    /// A scalar array result (`[int]`, …): the first column of every row.
    case values([DatabaseValue])
    /// `{}`: the first row, nil without one.
    case row(Row?)
    /// `[{}]` (and a select without `result`): every row.
    case rows([Row])
    /// `AType` or `:AMap`: the first row as a record, nil without one.
    case record((any Sendable)?)
    /// `[AType]` or `[:AMap]`: every row as a record.
    case records([any Sendable])
    /// A select with `foreach`: one result per element of the collection.
    case each([DAOResult])
}

extension DAOResult {
    /// The rowid of the last row the call inserted, nil when it inserted none.
    public var insertedRowID: Int64? {
        if case .inserted(_, let rowID) = self { return rowID }
        return nil
    }
}
