/// Which statement a query runs: what `QueryClauses.write(_:to:)` writes.
enum QueryStatement {
    /// `SELECT [DISTINCT] … FROM "table" [WHERE …] [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT ? [OFFSET ?]]`.
    case select
    /// `SELECT count(*)` of the rows the query returns.
    case count
    /// `SELECT EXISTS (query)`.
    case exists
    /// `DELETE FROM "table"` with the rows the query selects.
    case delete
    /// `UPDATE "table" SET …` of the rows the query selects.
    case update([ColumnAssignment])
}
