import Foundation

extension DocumentSort {
    /// The SQL `ORDER BY` terms of `sort` in `dialect` (without the final insertion order):
    /// for each key the type rank, then the value. Nil when a key's field cannot be reached
    /// in SQL.
    ///
    /// An engine orders as Swift does for plain text and for numbers of up to 2^53 (see
    /// the dialect); anything else may come out in another order, which `isOrdered(_:by:)`
    /// notices afterwards.
    static func sqlOrder(
        _ sort: [DocumentSort], in builder: inout DocumentSQLBuilder, dialect: some DocumentSQLDialect = SQLiteDocumentDialect()
    ) -> String? {
        sqlOrderTerms(sort, in: &builder, dialect: dialect)?.joined(separator: ", ")
    }

    /// `sqlOrder(_:in:dialect:)`, term by term.
    static func sqlOrderTerms(
        _ sort: [DocumentSort], in builder: inout DocumentSQLBuilder, dialect: some DocumentSQLDialect
    ) -> [String]? {
        var terms: [String] = []
        for key in sort {
            guard let keyTerms = dialect.sortTerms(key, in: &builder) else { return nil }
            terms += keyTerms
        }
        return terms
    }

    /// Whether `documents` (with their insertion positions) are exactly in the order
    /// `sorted(_:by:)` gives them: every neighbour in order, ties by insertion position.
    /// False too when a sort value is an integer beyond 2^53, which Swift orders against
    /// decimals in a way no single order reproduces (it is not transitive), so only the same
    /// sort on the same input gives the same result.
    static func isOrdered(_ documents: [(position: Int64, document: Document)], by sort: [DocumentSort]) -> Bool {
        let values = documents.map { entry in sort.map { $0.path.value(in: entry.document) ?? .null } }
        let exactLimit: Int64 = 1 << 53
        for row in values {
            for value in row {
                if case .int(let number) = value, number > exactLimit || number < -exactLimit { return false }
            }
        }
        for index in values.indices.dropFirst() {
            switch Self.order(values[index - 1], values[index], by: sort) {
            case .orderedAscending: continue
            case .orderedDescending: return false
            case .orderedSame: if documents[index - 1].position > documents[index].position { return false }
            }
        }
        return true
    }
}
