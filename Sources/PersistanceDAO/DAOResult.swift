import Persistance

/// What a DAO method returns, shaped by its `result` attribute.
public enum DAOResult: Sendable {
    /// A write without `result`: the number of rows it changed (summed over `foreach`).
    case done(changes: Int)
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
