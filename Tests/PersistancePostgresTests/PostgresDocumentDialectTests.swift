#if PostgreSQL
import Foundation
import PersistancePostgres
import Testing

@testable import Persistance

/// The document SQL on PostgreSQL: what PostgreSQL decides and orders alone, documents it
/// cannot hold as `jsonb`, paths it leaves to Swift, and parameters. (The predicate table and
/// the portable operations run on every engine in `PersistanceConformanceTests`.)
@Suite("Documents on PostgreSQL")
struct PostgresDocumentDialectTests {
    static let plainDocuments: [Document] = [
        ["name": "Ann", "age": 30, "score": 9.5, "city": "Paris", "tags": ["admin", "dev"], "active": true, "address": ["zip": "75001"]],
        ["name": "bob", "age": 41, "score": 7, "city": "Rome", "tags": ["dev"], "active": false],
        ["name": "Cid", "age": "unknown", "city": nil, "tags": [], "address": ["zip": 75002]],
        ["name": "Dan", "tags": [1, "ops"]],
    ]

    @Test("PostgreSQL decides predicates over plain documents alone, as the Swift evaluator would")
    func postgresDecidesPlainDocuments() async throws {
        let predicates: [DocumentPredicate] = [
            DocumentField("age") == 41, DocumentField("age") != 41, DocumentField("age") < 41, DocumentField("age") >= 30.5,
            DocumentField("score") > 8, DocumentField("score") == 7, DocumentField("age") == "unknown",
            DocumentField("name") < "Cid", DocumentField("active") == true, DocumentField("city") == nil,
            DocumentField("city").isNil, DocumentField("age").in([30, "unknown"]), DocumentField("name").contains("o"),
            DocumentField("name").beginsWith("A"), DocumentField("name").endsWith("n"), DocumentField("name").like("?O*"),
            DocumentField("name").like("?O*", caseInsensitive: true), DocumentField("name").like("b?b"),
            DocumentField("tags").contains("dev"), DocumentField("tags") == [], DocumentField("tags.0") == "dev",
            DocumentField("address.zip").beginsWith("75"), !(DocumentField("age") > 35) || DocumentField("city") == "Rome",
            DocumentField("address") == ["zip": "75001", "x": 1], DocumentField("tags") == ["dev"],
        ]
        let dialect = PostgresDocumentDialect()
        let postgres = try await TestServer.open()
        let collection = "plain_\(UUID().uuidString)"
        let outcomes = try await postgres.write { tx in
            let documents = tx.documents(collection)
            try await documents.createTable()
            let added = try await documents.add(contentsOf: Self.plainDocuments)
            var outcomes: [(label: String, decided: [Int64?], expected: [Int64?])] = []
            for predicate in predicates {
                var builder = dialect.makeBuilder()
                let condition = predicate.sqlDecision(in: &builder, dialect: dialect)
                let collectionParameter = builder.parameter(.text(collection))
                let sql = #"SELECT CAST((\#(condition))::boolean AS integer) FROM "persistance_documents""#
                    + #" WHERE "collection" = \#(collectionParameter) ORDER BY "position""#
                let decided = try await tx.fetchAll(sql, builder.arguments).map { try $0.value(at: 0, as: Int64?.self) }
                outcomes.append(("\(predicate)", decided, added.map { predicate.matches($0) ? 1 : 0 }))
            }
            _ = try await documents.removeAll()
            return outcomes
        }
        await postgres.close()
        for outcome in outcomes {
            #expect(outcome.decided == outcome.expected, "\(outcome.label)")
        }
    }

    @Test("PostgreSQL sorts plain documents as Swift does, with no correction")
    func postgresSortsPlainDocuments() async throws {
        let sorts: [[DocumentSort]] = [
            [DocumentField("age").ascending], [DocumentField("score").descending, DocumentField("name").ascending],
            [DocumentField("city").descending], [DocumentField("active").ascending, DocumentField("tags.0").descending],
        ]
        let dialect = PostgresDocumentDialect()
        let postgres = try await TestServer.open()
        let collection = "sorted_\(UUID().uuidString)"
        let outcomes = try await postgres.write { tx in
            let documents = tx.documents(collection)
            try await documents.createTable()
            let added = try await documents.add(contentsOf: Self.plainDocuments + Self.plainDocuments)
            var outcomes: [Bool] = []
            for sort in sorts {
                let query = DocumentQuery(documentsOf: collection, matching: nil, sort: sort, dialect: dialect, evaluatesInSQL: true)
                let rows = try await tx.fetchAll(query.sql, query.arguments)
                let found = try rows.map { row in
                    (position: try row.value(at: 0, as: Int64.self),
                     document: try query.parse(try row.value(at: 2, as: String.self), id: try row.value(at: 1, as: String.self)))
                }
                outcomes.append(DocumentSort.isOrdered(found, by: sort))
                outcomes.append(found.map(\.document) == DocumentSort.sorted(added, by: sort))
            }
            _ = try await documents.removeAll()
            return outcomes
        }
        await postgres.close()
        #expect(outcomes.allSatisfy { $0 })
    }

    @Test("a document holding NUL is stored without jsonb and decided in Swift")
    func nulDocumentsAreDecidedInSwift() async throws {
        let postgres = try await TestServer.open()
        let collection = "nul_\(UUID().uuidString)"
        let (found, contents) = try await postgres.write { tx in
            let documents = tx.documents(collection)
            try await documents.createTable()
            try await documents.add(contentsOf: [["s": "a\u{0}b"], ["s": "ab"]])
            let found = try await documents.query(where: DocumentField("s").beginsWith("a")).map { $0["s"]?.stringValue ?? "" }
            let contents = try await tx.fetchAll(
                #"SELECT "content" IS NULL FROM "persistance_documents" WHERE "collection" = $1 ORDER BY "position""#, [.text(collection)]
            ).map { try $0.value(at: 0, as: Bool.self) }
            _ = try await documents.removeAll()
            return (found, contents)
        }
        await postgres.close()
        #expect(found == ["a\u{0}b", "ab"])
        #expect(contents == [true, false])
    }

    @Test("paths PostgreSQL would read otherwise than Swift are left undecided")
    func unreachablePathsAreUndecided() {
        let dialect = PostgresDocumentDialect()
        for path in ["list.-1", "list.+1", "a. 1", "é", "tags.ü"] {
            var builder = dialect.makeBuilder()
            #expect(DocumentPredicate.isNil(DocumentPath(path)).sqlCondition(in: &builder, dialect: dialect) == "NULL", "\(path)")
            #expect(builder.arguments.isEmpty)
        }
        var builder = dialect.makeBuilder()
        #expect(dialect.sortTerms(DocumentField("list.-1").ascending, in: &builder) == nil)
    }

    @Test("every value is a parameter; equal values share one, each cast to text")
    func valuesAreParameters() {
        let dialect = PostgresDocumentDialect()
        var builder = dialect.makeBuilder()
        let predicate = DocumentField("name") == "x'; DROP TABLE t; --" || DocumentField("name").beginsWith("x'; DROP TABLE t; --")
        let sql = predicate.sqlCondition(in: &builder, dialect: dialect)
        #expect(!sql.contains("DROP"))
        #expect(builder.arguments == [.text("name"), .text("x'; DROP TABLE t; --")])
        #expect(sql.contains("$1::text") && sql.contains("$2::text"))
    }
}
#endif
