import Foundation
import Testing

@testable import Persistance

/// `like` matches as NSPredicate's `LIKE` (SRPPlist's filters) does: `*` and `?`
/// wildcards, `\` escapes, the whole string, case-sensitive; `caseInsensitive` is `LIKE[c]`.
/// The expected names hold for the SQL path (SQLite 3.40) and the Swift path (SQLCipher).
@Suite("Document like, as NSPredicate")
struct DocumentLikeTests {
    static let names = ["Paris", "paris", "PARIS", "Pa", "100%", "a_b", "a*b", "a?b", "axb", "a\\b", "Zürich", "zürich"]

    static let cases: [(DocumentPredicate, [String])] = [
        (DocumentField("name").like("Pa*"), ["Paris", "Pa"]),
        (DocumentField("name").like("pa*", caseInsensitive: true), ["Paris", "paris", "PARIS", "Pa"]),
        (DocumentField("name").like("?aris"), ["Paris", "paris"]),
        (DocumentField("name").like("Par"), []),  // the whole string must match
        (DocumentField("name").like("100%"), ["100%"]),  // % is no wildcard
        (DocumentField("name").like("10%"), []),
        (DocumentField("name").like("a_b"), ["a_b"]),  // nor is _
        (DocumentField("name").like("a?b"), ["a_b", "a*b", "a?b", "axb", "a\\b"]),
        (DocumentField("name").like("a\\*b"), ["a*b"]),
        (DocumentField("name").like("a\\?b"), ["a?b"]),
        (DocumentField("name").like("a\\\\b"), ["a\\b"]),
        (DocumentField("name").like("z*"), ["zürich"]),
        (DocumentField("name").like("ZÜ*", caseInsensitive: true), ["Zürich", "zürich"]),
        (DocumentField("name").like("*IS"), ["PARIS"]),
        (DocumentField("name").like("*"), names),
    ]

    @Test("like and like[c] select what NSPredicate would, in the database and in a caching handle")
    func likeMatchesAsNSPredicate() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: Self.names.map { ["name": .string($0)] })
        let batch = fixture.users.beginCaching()
        try await batch.add(["name": "not cached yet"])
        try await batch.remove(where: DocumentField("name") == "not cached yet")
        for (predicate, expected) in Self.cases {
            #expect(DocumentFixture.names(try await fixture.users.query(where: predicate)) == expected, "\(predicate)")
            #expect(try await fixture.users.count(where: predicate) == expected.count, "\(predicate)")
            #expect(DocumentFixture.names(try await batch.query(where: predicate)) == expected, "cache: \(predicate)")
        }
        batch.discard()
    }
}
