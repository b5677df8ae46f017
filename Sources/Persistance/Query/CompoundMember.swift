/// A query combined with another one's rows by `UNION` or `UNION ALL`.
struct CompoundMember: Sendable {
    /// How the rows are combined.
    enum Kind: Sendable {
        /// `UNION`: the rows of both, each distinct row once.
        case union
        /// `UNION ALL`: every row of both, duplicates kept.
        case unionAll

        var sql: String {
            switch self {
            case .union: " UNION "
            case .unionAll: " UNION ALL "
            }
        }
    }

    let kind: Kind
    let clauses: QueryClauses
}
