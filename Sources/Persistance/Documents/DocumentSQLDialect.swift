/// How one engine spells the SQL of the document store: the table's statements and, for
/// each kind of predicate and sort key, the engine's way of reaching into a stored document
/// (SQLite's JSON functions over JSON text, PostgreSQL's operators over `jsonb`).
///
/// The rest is shared: the predicate tree (`and`, `or`, `not`), the queries' shape and the
/// final word of the Swift evaluator. A condition a dialect writes is true, false or NULL,
/// and NULL means "the engine cannot tell exactly as Swift would": such documents are read
/// and decided by ``DocumentPredicate/matches(_:)``. Sort keys order the rows as well as the
/// engine can; documents that come out in another order than ``DocumentSort``'s are sorted
/// again in Swift. So every dialect gives the same documents in the same order, and a
/// dialect may leave anything undecided it cannot reproduce exactly.
///
/// ``SQLiteDocumentDialect`` is the SQLite one; `PersistancePostgres` has
/// `PostgresDocumentDialect`. A ``DatabaseTransaction`` names its own in
/// ``DatabaseTransaction/documentDialect``.
public protocol DocumentSQLDialect: Sendable {
    /// What comes before a parameter's number: `?` (`?1`) or `$` (`$1`).
    var placeholderPrefix: String { get }
    /// Whether the engine evaluates predicates and sort keys at all; when it cannot (SQLite
    /// without its JSON functions), every document is read and Swift decides and sorts.
    var evaluatesPredicates: Bool { get }
    /// Creates the documents table, one row per document of any collection, when it is missing.
    var createTableSQL: String { get }
    /// Adds a document; its parameters are the collection, the `Id` and the JSON text.
    var insertSQL: String { get }
    /// Replaces a document's JSON text; its parameters are the JSON text, the collection and the `Id`.
    var replaceSQL: String { get }
    /// Removes one document; its parameters are the collection and the `Id`.
    var deleteSQL: String { get }
    /// Removes every document of a collection; its parameter is the collection.
    var deleteAllSQL: String { get }

    /// The condition that is always `value`.
    func literal(_ value: Bool) -> String

    /// The query of a collection's documents: columns insertion position (integer), `Id`,
    /// JSON text and `decision` (1, 0 or NULL, as an integer), for the rows of `filter`
    /// where `decision` is not false, ordered by `order` then by insertion position.
    func documentsSQL(decision: String, filter: String, order: [String]) -> String

    /// The query that counts a collection's documents: columns `decision` (1 or NULL, as an
    /// integer), `Id`, and the JSON text where `decision` is NULL, for the rows of `filter`
    /// where `decision` is not false.
    func countSQL(decision: String, filter: String) -> String

    /// `condition` (over the whole predicate), made NULL in documents the engine cannot read
    /// as Swift does at all.
    func decision(_ condition: String, in builder: inout DocumentSQLBuilder) -> String

    /// `path comparison operand`, where `operand` is valid for the comparison.
    func comparison(
        _ path: DocumentPath, _ comparison: DocumentPredicate.Comparison, _ operand: JSONValue,
        in builder: inout DocumentSQLBuilder
    ) -> String

    /// The field at `path` matches one of `candidates` (never empty).
    func membership(_ path: DocumentPath, _ candidates: [JSONValue], in builder: inout DocumentSQLBuilder) -> String

    /// The field at `path` is missing or null.
    func isNull(_ path: DocumentPath, in builder: inout DocumentSQLBuilder) -> String

    /// The text `match` of the field at `path` against `text`.
    func textMatch(
        _ path: DocumentPath, _ match: DocumentPredicate.TextMatch, _ text: String, in builder: inout DocumentSQLBuilder
    ) -> String

    /// The `ORDER BY` terms of one sort key, type rank first, each with its direction; nil
    /// when the engine cannot reach the field (the documents are then sorted in Swift).
    func sortTerms(_ key: DocumentSort, in builder: inout DocumentSQLBuilder) -> [String]?
}

extension DocumentSQLDialect {
    /// A builder of this dialect's conditions and parameters.
    func makeBuilder() -> DocumentSQLBuilder {
        DocumentSQLBuilder(placeholderPrefix: placeholderPrefix)
    }
}
