import Foundation
import Testing

@testable import Persistance

/// One table of predicates and one of sort orders, over the predicate table's awkward
/// documents and a few that only SQLite stores (NUL in keys and at the ends of text), each
/// run through SQLite's collection (SQL where the engine has the JSON functions, Swift on
/// SQLite 3.15) and compared with the Swift evaluator over the documents as they were added;
/// where the engine has them, the SQL path and the Swift path also run side by side on the
/// same connection.
@Suite("Document predicates in SQL on SQLite")
struct SQLiteDocumentPredicateTests {
    static let documents: [Document] = DocumentPredicateTable.documents + [
        ["name": "nul only", "s": "\u{0}", "tags": ["a\u{0}b", "x"]],
        ["name": "nul last", "s": "ab\u{0}", "o": ["city": "Paris\u{0}", "zip": "75001"]],
        ["name": "nul key", "nul\u{0}key": 3],
    ]

    static let predicates: [(String, DocumentPredicate)] = [
        ("int equal", DocumentField("n") == 41),
        ("double equal", DocumentField("n") == 41.0),
        ("not equal", DocumentField("n") != 41),
        ("less", DocumentField("n") < 41),
        ("less or equal", DocumentField("n") <= 41),
        ("greater than a decimal", DocumentField("n") > 2.5),
        ("greater or equal a decimal", DocumentField("n") >= 2.5),
        ("equal a decimal", DocumentField("n") == 2.5),
        ("a last-digit neighbour", DocumentField("n") == 2.5000000000000004),
        ("beyond 2^53 as an int", DocumentField("n") == 9_007_199_254_740_993),
        ("beyond 2^53 as a double", DocumentField("n") == 9_007_199_254_740_992.0),
        ("greater than 2^53", DocumentField("n") > 9_007_199_254_740_992),
        ("int max", DocumentField("n") >= .int(Int64.max)),
        ("zero", DocumentField("n") == 0),
        ("negative zero", DocumentField("n") == -0.0),
        ("below zero", DocumentField("n") < 0),
        ("the smallest decimal", DocumentField("n") == .double(.leastNonzeroMagnitude)),
        ("positive and tiny", DocumentField("n") > 0 && DocumentField("n") < 1e-300),
        ("the largest decimal", DocumentField("n") >= 1.7976931348623157e308),
        ("number as a string", DocumentField("n") == "41"),
        ("string order on numbers", DocumentField("n") < "5"),
        ("boolean true", DocumentField("n") == true),
        ("boolean false", DocumentField("b") == false),
        ("equal null", DocumentField("n") == nil),
        ("not equal null", DocumentField("n") != nil),
        ("is nil", DocumentField("b").isNil),
        ("in mixed", DocumentField("n").in([41, "41", true, nil])),
        ("in empty", DocumentField("n").in([])),
        ("string equal", DocumentField("s") == "Paris"),
        ("string case", DocumentField("s") == "paris"),
        ("string less", DocumentField("s") < "Paris"),
        ("string greater", DocumentField("s") > "P"),
        ("string from empty", DocumentField("s") >= ""),
        ("composed equals decomposed", DocumentField("s") == "café"),
        ("decomposed equals composed", DocumentField("s") == "cafe\u{301}"),
        ("Kelvin sign equals K", DocumentField("s") == "Kelvin"),
        ("non-ASCII order", DocumentField("s") > "Z"),
        ("contains", DocumentField("s").contains("ar")),
        ("contains empty", DocumentField("s").contains("")),
        ("contains e (not in é)", DocumentField("s").contains("e")),
        ("contains CR", DocumentField("s").contains("\r")),
        ("contains LF", DocumentField("s").contains("\n")),
        ("contains é", DocumentField("s").contains("é")),
        ("contains NUL", DocumentField("s").contains("\u{0}")),
        ("begins with", DocumentField("s").beginsWith("Pa")),
        ("begins with empty", DocumentField("s").beginsWith("")),
        ("begins with caf", DocumentField("s").beginsWith("caf")),
        ("ends with", DocumentField("s").endsWith("is")),
        ("ends with empty", DocumentField("s").endsWith("")),
        ("ends with a combining mark", DocumentField("s").endsWith("\u{301}")),
        ("like is case-sensitive", DocumentField("s").like("Pa*")),
        ("like[c] ignores case", DocumentField("s").like("pa*", caseInsensitive: true)),
        ("like suffix", DocumentField("s").like("*IS")),
        ("like[c] suffix", DocumentField("s").like("*IS", caseInsensitive: true)),
        ("like ?", DocumentField("s").like("?a*")),
        ("like, escaped wildcards", DocumentField("s").like("*\\*\\[x]\\?")),
        ("like, SQL's % and _ are literal", DocumentField("s").like("100%_done*")),
        ("like, SQL's % alone", DocumentField("s").like("%")),
        ("like caf?", DocumentField("s").like("caf?")),
        ("like anything", DocumentField("s").like("*")),
        ("like empty", DocumentField("s").like("")),
        ("like, many *", DocumentField("s").like("**********a*")),
        ("like non-ASCII", DocumentField("s").like("z*", caseInsensitive: true)),
        ("like a trailing backslash", DocumentField("s").like("a\\")),
        ("like[c] a NUL", DocumentField("s").like("A?B", caseInsensitive: true)),
        ("like across a NUL", DocumentField("s").like("a*")),
        ("NUL: equal the text before it", DocumentField("s") == "a"),
        ("NUL: equal it whole", DocumentField("s") == "a\u{0}b"),
        ("NUL: the operand alone", DocumentField("s") == "\u{0}"),
        ("NUL: not equal the text before it", DocumentField("s") != "a"),
        ("NUL: order", DocumentField("s") > "a"),
        ("NUL: order against one", DocumentField("s") < "a\u{0}c"),
        ("NUL: in", DocumentField("s").in(["a", "ab"])),
        ("NUL: in with one", DocumentField("s").in(["a\u{0}b", "x"])),
        ("NUL: ends with", DocumentField("s").endsWith("b")),
        ("NUL: begins with", DocumentField("s").beginsWith("ab")),
        ("NUL: contains", DocumentField("s").contains("b")),
        ("NUL: array contains the text before it", DocumentField("tags").contains("a")),
        ("NUL: array contains it whole", DocumentField("tags").contains("a\u{0}b")),
        ("NUL: nested", DocumentField("o.city") == "Paris"),
        ("NUL: whole object", DocumentField("o") == ["city": "Paris", "zip": "75001"]),
        ("array contains", DocumentField("tags").contains("dev")),
        ("array contains composed", DocumentField("tags").contains("café")),
        ("array contains empty", DocumentField("tags").contains("")),
        ("array contains emoji", DocumentField("tags").contains("👍🏽")),
        ("whole array", DocumentField("a") == [1, 2]),
        ("whole array of decimals", DocumentField("a") == [1.0, 2.0]),
        ("empty array", DocumentField("a") == []),
        ("whole object", DocumentField("o") == ["city": "Paris", "zip": "75001"]),
        ("empty object", DocumentField("o") == [:]),
        ("not the whole array", DocumentField("a") != [2, 1]),
        ("nested path", DocumentField("o.city") == "Paris"),
        ("deep nested path", DocumentField("o.geo.lat") > 40),
        ("array index", DocumentField("a.0") == 1),
        ("numeric object key", DocumentField("a.0") == "zero-key"),
        ("index then key", DocumentField("list.0.k") == "v"),
        ("index then index", DocumentField("list.0.1") == 2),
        ("negative index", DocumentField("list.-1") == "x"),
        ("key with a dot", DocumentField(DocumentPath(components: ["a.b"])) == 1),
        ("dotted path into an object", DocumentField("a.b") == 5),
        ("key with a quote", DocumentField(DocumentPath(components: ["q\"uote"])) == "x"),
        ("key with a backslash", DocumentField(DocumentPath(components: ["back\\slash"])) == 2),
        ("key with NUL", DocumentField(DocumentPath(components: ["nul\u{0}key"])) >= 3),
        ("non-ASCII key", DocumentField("é") == 1),
        ("K finds the Kelvin sign key", DocumentField("K") >= 1),
        ("K is nil", DocumentField("K").isNil),
        ("not", !(DocumentField("n") == 41)),
        ("not contains", !DocumentField("s").contains("ar")),
        ("and", DocumentField("n") > 0 && DocumentField("s").isNil),
        ("or", DocumentField("n").isNil || DocumentField("s").like("*a*")),
        ("not or", !(DocumentField("n") > 10 || DocumentField("s") == "paris")),
        ("not of undecided", !(DocumentField("s") == "café") && DocumentField("s") != nil),
        ("empty and", .and([])),
        ("empty or", .or([])),
        ("not empty or", !.or([])),
    ]

    static let sorts: [[DocumentSort]] = [
        [DocumentField("n").ascending],
        [DocumentField("n").descending],
        [DocumentField("s").ascending],
        [DocumentField("s").descending, DocumentField("name").ascending],
        [DocumentField("a").ascending],
        [DocumentField("o").descending],
        [DocumentField("tags.0").ascending, DocumentField("n").descending],
        [DocumentField("nowhere").ascending],
        [DocumentField("K").descending],
        [DocumentField("o.city").ascending, DocumentField("b").descending, DocumentField("n").ascending],
        [DocumentField(DocumentPath(components: ["q\"uote"])).ascending],
    ]

    /// A collection `users` holding the documents, as added (with `Id` and `update`), in
    /// insertion order, on a SQLite database.
    private static func withDocuments(
        _ body: (Database, DocumentCollection, [Document]) async throws -> Void
    ) async throws {
        try await ConformanceBackend.sqlite.withSQLite { db in
            let users = try await db.collection("users")
            try await body(db, users, try await users.add(contentsOf: documents))
        }
    }

    private static func ids(_ documents: [Document]) -> [String] {
        documents.map(DocumentCollection.id(of:))
    }

    @Test("every predicate selects, through the collection, what the Swift evaluator selects")
    func predicatesThroughTheCollection() async throws {
        try await Self.withDocuments { _, users, added in
            for (label, predicate) in Self.predicates {
                let expected = Self.ids(added.filter { predicate.matches($0) })
                let found = Self.ids(try await users.query(where: predicate))
                let count = try await users.count(where: predicate)
                #expect(found == expected, "\(label)")
                #expect(count == expected.count, "\(label)")
            }
        }
        #expect(Self.predicates.count >= 115)
    }

    @Test("the SQL path and the Swift path give the same documents on the same connection")
    func sqlAgainstSwiftOnOneConnection() async throws {
        try await Self.withDocuments { db, _, _ in
            let predicates = Self.predicates
            let mismatches = try await db.read { (connection: Connection) in
                let inSwift = StoredDocuments(connection: connection, collection: "users", evaluatesInSQL: false)
                let inSQL = StoredDocuments(connection: connection, collection: "users", evaluatesInSQL: SQLiteEngine.supportsJSON)
                var mismatches: [String] = []
                for (label, predicate) in predicates {
                    let swiftIDs = Self.ids(try inSwift.documents(matching: predicate, sort: []))
                    let sqlIDs = Self.ids(try inSQL.documents(matching: predicate, sort: []))
                    let sqlCount = try inSQL.count(matching: predicate)
                    if sqlIDs != swiftIDs || sqlCount != swiftIDs.count { mismatches.append(label) }
                }
                return mismatches
            }
            #expect(mismatches == [])
        }
    }

    @Test("every sort order, with and without a filter, is the Swift sort's")
    func sortOrders() async throws {
        try await Self.withDocuments { _, users, added in
            let filter = DocumentField("name") != "int"
            for sort in Self.sorts {
                let label = sort.map { "\($0.path) \($0.ascending ? "asc" : "desc")" }.joined(separator: ", ")
                let expected = Self.ids(DocumentSort.sorted(added, by: sort))
                let sorted = Self.ids(try await users.queryAll(sort: sort))
                #expect(sorted == expected, "\(label)")
                let expectedFiltered = Self.ids(DocumentSort.sorted(added.filter { filter.matches($0) }, by: sort))
                let filtered = Self.ids(try await users.query(where: filter, sort: sort))
                #expect(filtered == expectedFiltered, "\(label)")
            }
        }
    }
}
