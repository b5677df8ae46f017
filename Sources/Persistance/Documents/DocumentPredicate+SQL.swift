extension DocumentPredicate {
    /// `sqlCondition(in:dialect:)`, left undecided (NULL) in the documents `dialect` cannot
    /// read as Swift does at all (see ``DocumentSQLDialect/decision(_:in:)``). The predicate
    /// must be valid.
    func sqlDecision(in builder: inout DocumentSQLBuilder, dialect: some DocumentSQLDialect = SQLiteDocumentDialect()) -> String {
        let condition = sqlCondition(in: &builder, dialect: dialect)
        return dialect.decision(condition, in: &builder)
    }

    /// The predicate as an SQL condition over a stored document: true where `matches(_:)` is
    /// true, false where it is false, NULL where the engine cannot tell exactly (the caller
    /// then asks `matches(_:)`). `and`, `or` and `not` propagate NULL as three-valued logic
    /// does. The predicate must be valid.
    func sqlCondition(in builder: inout DocumentSQLBuilder, dialect: some DocumentSQLDialect = SQLiteDocumentDialect()) -> String {
        switch self {
        case .compare(let path, let comparison, let operand):
            return dialect.comparison(path, comparison, operand, in: &builder)
        case .isIn(let path, let candidates):
            guard !candidates.isEmpty else { return dialect.literal(false) }
            return dialect.membership(path, candidates, in: &builder)
        case .isNil(let path):
            return dialect.isNull(path, in: &builder)
        case .text(let path, let match, let text):
            return dialect.textMatch(path, match, text, in: &builder)
        case .and(let predicates):
            guard !predicates.isEmpty else { return dialect.literal(true) }
            return "(" + predicates.map { $0.sqlCondition(in: &builder, dialect: dialect) }.joined(separator: " AND ") + ")"
        case .or(let predicates):
            guard !predicates.isEmpty else { return dialect.literal(false) }
            return "(" + predicates.map { $0.sqlCondition(in: &builder, dialect: dialect) }.joined(separator: " OR ") + ")"
        case .not(let predicate):
            return "(NOT \(predicate.sqlCondition(in: &builder, dialect: dialect)))"
        }
    }
}
