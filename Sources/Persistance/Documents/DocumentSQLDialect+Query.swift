import Foundation

/// One read of a collection's documents in a ``DocumentSQLDialect``: the statement to run,
/// and what to make of its rows. The synchronous store (`StoredDocuments`) and the portable
/// one (`PortableDocumentCollection`) both read through it, so they select, decide and order
/// alike: a row whose decision is 1 belongs; one whose decision is NULL belongs when
/// ``DocumentPredicate/matches(_:)`` says so; rows the engine could not order exactly are
/// sorted again in Swift, from insertion order.
struct DocumentQuery {
    /// The statement.
    let sql: String
    /// Its arguments, in order.
    let arguments: [DatabaseValue]
    /// The collection read.
    let collection: String
    /// The condition, when there is one.
    let predicate: DocumentPredicate?
    /// The sort order the documents come out in.
    let sort: [DocumentSort]
    /// Whether the statement orders by `sort` (else Swift sorts every document).
    let isOrderedInSQL: Bool

    /// The documents of `collection` matching `predicate`, ordered by `sort`: with
    /// `evaluatesInSQL` false, the statement reads every document and Swift decides and sorts.
    /// The predicate and the sort keys must be valid.
    init(
        documentsOf collection: String, matching predicate: DocumentPredicate?, sort: [DocumentSort],
        dialect: some DocumentSQLDialect, evaluatesInSQL: Bool
    ) {
        var builder = dialect.makeBuilder()
        let (decision, filter) = Self.selection(of: collection, matching: predicate, dialect: dialect, evaluatesInSQL, in: &builder)
        let order = evaluatesInSQL && !sort.isEmpty ? DocumentSort.sqlOrderTerms(sort, in: &builder, dialect: dialect) : nil
        sql = dialect.documentsSQL(decision: decision, filter: filter, order: order ?? [])
        arguments = builder.arguments
        self.collection = collection
        self.predicate = predicate
        self.sort = sort
        isOrderedInSQL = order != nil
    }

    /// The count of `collection`'s documents matching `predicate`: the documents the engine
    /// decided are counted there, only the undecided ones are read.
    init(countOf collection: String, matching predicate: DocumentPredicate?, dialect: some DocumentSQLDialect, evaluatesInSQL: Bool) {
        var builder = dialect.makeBuilder()
        let (decision, filter) = Self.selection(of: collection, matching: predicate, dialect: dialect, evaluatesInSQL, in: &builder)
        sql = dialect.countSQL(decision: decision, filter: filter)
        arguments = builder.arguments
        self.collection = collection
        self.predicate = predicate
        sort = []
        isOrderedInSQL = false
    }

    /// The decision and the filter of the collection's rows: the decision is true where SQL
    /// found that `predicate` matches (or there is none), false where it does not, NULL
    /// where Swift must tell. `Id == "…"` is looked up by index.
    private static func selection(
        of collection: String, matching predicate: DocumentPredicate?, dialect: some DocumentSQLDialect,
        _ evaluatesInSQL: Bool, in builder: inout DocumentSQLBuilder
    ) -> (decision: String, filter: String) {
        let collectionFilter = "\"collection\" = \(builder.parameter(.text(collection)))"
        if let id = predicate?.requiredID {
            return (dialect.literal(true), collectionFilter + " AND \"id\" = \(builder.parameter(.text(id)))")
        }
        let condition = evaluatesInSQL ? predicate?.sqlDecision(in: &builder, dialect: dialect) : nil
        return (condition ?? (predicate == nil ? dialect.literal(true) : DocumentSQLBuilder.undecided), collectionFilter)
    }

    /// Whether a row with this decision (1, 0 or NULL) holds a matching document.
    func includes(decided: Int64?, _ document: Document) -> Bool {
        decided == 1 || predicate?.matches(document) ?? true
    }

    /// The matching documents, as read with their insertion positions, in `sort`'s order.
    func ordered(_ found: [(position: Int64, document: Document)]) -> [Document] {
        if sort.isEmpty { return found.map(\.document) }
        if isOrderedInSQL, DocumentSort.isOrdered(found, by: sort) { return found.map(\.document) }
        // Not ordered exactly as Swift orders (or not ordered in SQL): Swift sorts them from
        // insertion order, as it does everywhere else.
        return DocumentSort.sorted(found.sorted { $0.position < $1.position }.map(\.document), by: sort)
    }

    /// The stored document `id`, from its JSON text.
    /// - Throws: `DatabaseError.Kind.invalidDocument`, naming the document, when the text is
    ///   not a JSON object the library can read (malformed, or nested too deep).
    func parse(_ body: String, id: String) throws -> Document {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch let error as DatabaseError {
            throw DatabaseError(kind: .invalidDocument, message: "the stored document \(id) of \(collection) is unreadable: \(error.message)")
        }
        guard case .object(let document) = value else {
            throw DatabaseError(kind: .invalidDocument, message: "the stored document \(id) of \(collection) is not an object")
        }
        return document
    }
}
