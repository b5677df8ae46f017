import Foundation
import Testing

@testable import Persistance

/// One table of predicates with their expected results, run against the database on
/// whichever engine the build links (the SQLite 3.40 and the SQLCipher / SQLite 3.15 runs
/// must both match the expectations written here), and against the write-back cache.
@Suite("Document predicates")
struct DocumentPredicateTests {
    static let people: [Document] = [
        ["name": "Ann", "age": 30, "score": 9.5, "address": ["city": "Paris", "zip": "75001"], "tags": ["admin", "dev"], "active": true],
        ["name": "bob", "age": 41, "score": 7, "address": ["city": "Rome"], "tags": ["dev"], "active": false],
        ["name": "Cid", "age": 25.0, "address": ["city": "Paris"], "nickname": nil],
        ["name": "Dan", "age": "unknown", "tags": []],
        ["name": "Éva", "age": 41, "score": 8, "address": ["city": "Oslo", "geo": ["lat": 59.9]]],
    ]

    static let cases: [(String, DocumentPredicate, [String])] = [
        ("equal int", DocumentField("age") == 41, ["bob", "Éva"]),
        ("equal across int and double", DocumentField("age") == 25, ["Cid"]),
        ("not equal includes missing and other types", DocumentField("age") != 41, ["Ann", "Cid", "Dan"]),
        ("less", DocumentField("age") < 30, ["Cid"]),
        ("less or equal", DocumentField("age") <= 30, ["Ann", "Cid"]),
        ("greater ignores strings", DocumentField("age") > 29, ["Ann", "bob", "Éva"]),
        ("greater or equal double", DocumentField("score") >= 8, ["Ann", "Éva"]),
        ("string order", DocumentField("name") < "D", ["Ann", "Cid"]),
        ("nested path", DocumentField("address.city") == "Paris", ["Ann", "Cid"]),
        ("deep nested path", DocumentField("address.geo.lat") > 50, ["Éva"]),
        ("array index path", DocumentField("tags.0") == "dev", ["bob"]),
        ("and", DocumentField("address.city") == "Paris" && DocumentField("age") >= 30, ["Ann"]),
        ("or", DocumentField("name") == "Dan" || DocumentField("score") == 7, ["bob", "Dan"]),
        ("not", !(DocumentField("address.city") == "Paris"), ["bob", "Dan", "Éva"]),
        ("in", DocumentField("age").in([25, 30, "unknown"]), ["Ann", "Cid", "Dan"]),
        ("is nil: missing or null", DocumentField("score").isNil, ["Cid", "Dan"]),
        ("is nil: explicit null", DocumentField("nickname").isNil && DocumentField("name") == "Cid", ["Cid"]),
        ("contains in string", DocumentField("name").contains("o"), ["bob"]),
        ("contains in array", DocumentField("tags").contains("dev"), ["Ann", "bob"]),
        ("begins with", DocumentField("address.zip").beginsWith("75"), ["Ann"]),
        ("ends with", DocumentField("name").endsWith("n"), ["Ann", "Dan"]),
        ("like is case-sensitive, as NSPredicate's", DocumentField("name").like("B*"), []),
        ("like[c] ignores case", DocumentField("name").like("B*", caseInsensitive: true), ["bob"]),
        ("like with ?", DocumentField("name").like("?a?"), ["Dan"]),
        ("like, SQL's wildcards are literal", DocumentField("name").like("_a%"), []),
        ("like, non-ASCII exact", DocumentField("name").like("é*"), []),
        ("like[c], non-ASCII case folded", DocumentField("name").like("é*", caseInsensitive: true), ["Éva"]),
        ("boolean", DocumentField("active") == false, ["bob"]),
        ("whole object", DocumentField("address") == ["city": "Rome"], ["bob"]),
        ("whole array", DocumentField("tags") == [], ["Dan"]),
    ]

    @Test("every predicate selects the expected documents from the database")
    func predicatesOnTheDatabase() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: Self.people)
        for (label, predicate, expected) in Self.cases {
            let found = DocumentFixture.names(try await fixture.users.query(where: predicate))
            #expect(found == expected, "\(label)")
            #expect(try await fixture.users.count(where: predicate) == expected.count, "\(label)")
        }
    }

    @Test("every predicate selects the same documents from the write-back cache")
    func predicatesOnTheCache() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: Array(Self.people.prefix(2)))
        let batch = fixture.users.beginCaching()
        try await batch.add(contentsOf: Array(Self.people.dropFirst(2)))
        for (label, predicate, expected) in Self.cases {
            let found = DocumentFixture.names(try await batch.query(where: predicate))
            #expect(found == expected, "\(label)")
        }
        batch.discard()
    }

    @Test("sorting on several fields, descending, with missing values first")
    func sorting() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: Self.people)
        let byAgeThenName = try await fixture.users.queryAll(sort: [DocumentField("age").descending, DocumentField("name").ascending])
        // Descending by type rank: strings after numbers, so "unknown" comes first.
        #expect(DocumentFixture.names(byAgeThenName) == ["Dan", "bob", "Éva", "Ann", "Cid"])
        let byScore = try await fixture.users.query(where: nil, sort: [DocumentField("score").ascending])
        #expect(DocumentFixture.names(byScore) == ["Cid", "Dan", "bob", "Éva", "Ann"])
    }

    @Test("ordering comparisons with values that have no order are typed errors")
    func incompatibleComparisons() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: Self.people)
        for predicate in [DocumentField("age") > true, DocumentField("age") < nil, DocumentField("tags") >= ["dev"],
                          DocumentField("address") <= ["city": "Paris"]] {
            await #expect(throws: DatabaseError.self) { try await fixture.users.query(where: predicate) }
            let error = await #expect(throws: DatabaseError.self) { try await fixture.users.count(where: predicate) }
            #expect(error?.kind == .invalidPredicate)
        }
        let emptyPath = await #expect(throws: DatabaseError.self) {
            try await fixture.users.remove(where: DocumentField("address..city") == "Paris")
        }
        #expect(emptyPath?.kind == .invalidPredicate)
        #expect(try await fixture.users.count() == Self.people.count)
    }
}
