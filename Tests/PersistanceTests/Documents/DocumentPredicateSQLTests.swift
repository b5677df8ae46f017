import Foundation
import Testing

@testable import Persistance

/// SQLite's JSON functions deciding predicates and sort orders over plain documents, and
/// leaving to Swift what they cannot compare as Swift does. (The table of awkward documents,
/// predicates and sort orders runs in `PersistanceConformanceTests`.)
@Suite("Document predicates in SQL")
struct DocumentPredicateSQLTests {
    static let plainDocuments: [Document] = [
        ["name": "Ann", "age": 30, "score": 9.5, "city": "Paris", "tags": ["admin", "dev"], "active": true, "address": ["zip": "75001"]],
        ["name": "bob", "age": 41, "score": 7, "city": "Rome", "tags": ["dev"], "active": false],
        ["name": "Cid", "age": "unknown", "city": nil, "tags": [], "address": ["zip": 75002]],
        ["name": "Dan", "tags": [1, "ops"]],
    ]

    @Test("SQLite decides predicates over plain documents alone, as the Swift evaluator would",
          .enabled(if: SQLiteEngine.supportsJSON))
    func sqlDecidesPlainDocuments() async throws {
        let fixture = try await DocumentFixture()
        let added = try await fixture.users.add(contentsOf: Self.plainDocuments)
        let predicates: [DocumentPredicate] = [
            DocumentField("age") == 41, DocumentField("age") != 41, DocumentField("age") < 41, DocumentField("age") >= 30.5,
            DocumentField("score") > 8, DocumentField("score") == 7, DocumentField("age") == "unknown",
            DocumentField("name") < "Cid", DocumentField("active") == true, DocumentField("city") == nil,
            DocumentField("city").isNil, DocumentField("age").in([30, "unknown"]), DocumentField("name").contains("o"),
            DocumentField("name").beginsWith("A"), DocumentField("name").endsWith("n"), DocumentField("name").like("?O*"),
            DocumentField("name").like("?O*", caseInsensitive: true), DocumentField("name").like("b?b"),
            DocumentField("tags").contains("dev"), DocumentField("tags") == [], DocumentField("tags.0") == "dev",
            DocumentField("address.zip").beginsWith("75"), !(DocumentField("age") > 35) || DocumentField("city") == "Rome",
        ]
        let outcomes = try await fixture.db.read { connection in
            try predicates.map { predicate in
                var builder = DocumentSQLBuilder()
                let condition = predicate.sqlCondition(in: &builder)
                let sql = "SELECT \(condition) FROM \"persistance_documents\" ORDER BY rowid"
                return try connection.fetchAll(Int64?.self, sql, builder.statementArguments)
            }
        }
        for (predicate, decided) in zip(predicates, outcomes) {
            #expect(decided == added.map { predicate.matches($0) ? 1 : 0 }, "\(predicate)")
        }
    }

    @Test("SQLite sorts plain documents as Swift does, with no correction", .enabled(if: SQLiteEngine.supportsJSON))
    func sqlSortsPlainDocuments() async throws {
        let fixture = try await DocumentFixture()
        let added = try await fixture.users.add(contentsOf: Self.plainDocuments + Self.plainDocuments)
        let sorts: [[DocumentSort]] = [
            [DocumentField("age").ascending], [DocumentField("score").descending, DocumentField("name").ascending],
            [DocumentField("city").descending], [DocumentField("tags").ascending], [DocumentField("address").descending],
            [DocumentField("active").ascending, DocumentField("tags.0").descending],
        ]
        for sort in sorts {
            let ordered = try await fixture.db.read { connection in
                var builder = DocumentSQLBuilder()
                let order = try #require(DocumentSort.sqlOrder(sort, in: &builder))
                let sql = "SELECT rowid, \"body\" FROM \"persistance_documents\" ORDER BY \(order), rowid"
                return try connection.fetchAll(sql, builder.statementArguments).map { row in
                    (position: try row.value(at: 0, as: Int64.self), document: try Self.document(row.value(at: 1, as: String.self)))
                }
            }
            #expect(DocumentSort.isOrdered(ordered, by: sort), "\(sort)")
            #expect(Self.ids(ordered.map(\.document)) == Self.ids(DocumentSort.sorted(added, by: sort)), "\(sort)")
        }
    }

    private static func ids(_ documents: [Document]) -> [String] {
        documents.map(DocumentCollection.id(of:))
    }

    private static func document(_ body: String) throws -> Document {
        guard case .object(let document) = try JSONParser.parse(body) else { throw DatabaseError(kind: .invalidDocument, message: body) }
        return document
    }

    @Test("text SQLite cannot compare as Swift does is left to Swift", .enabled(if: SQLiteEngine.supportsJSON))
    func nonPlainTextIsUndecided() async throws {
        let fixture = try await DocumentFixture()
        let added = try await fixture.users.add(contentsOf: [["s": "cafe\u{301}"], ["s": "a\r\nb"], ["s": "plain"], ["\u{212A}": 1]])
        // Undecided: a decomposed string, a CR LF, a key Swift finds under "K"; decided: plain text.
        let predicate = DocumentField("s") == "cafe" || DocumentField("K") == 1
        let decided = try await fixture.db.read { connection in
            var builder = DocumentSQLBuilder()
            let sql = "SELECT \(predicate.sqlCondition(in: &builder)) FROM \"persistance_documents\" ORDER BY rowid"
            return try connection.fetchAll(Int64?.self, sql, builder.statementArguments)
        }
        #expect(decided == [nil, nil, 0, nil])
        #expect(try await fixture.users.count(where: predicate) == added.filter { predicate.matches($0) }.count)
        #expect(try await fixture.users.count(where: predicate) == 1)
    }

    @Test("the engine's JSON functions are found by running them")
    func jsonFeatureDetection() {
        #expect(SQLiteEngine.supportsJSON == !SQLiteEngine.isSQLCipher)
    }
}
