import Foundation
import Testing

@testable import Persistance

/// The predicate table: every kind of predicate and sort the document API offers, over one
/// fixed set of awkward documents (mixed types, missing fields, nulls, Unicode, NUL, large
/// integers, decimals, nested values), with the names each query must give, in order — what
/// the Swift evaluator gives over the documents as added. Every path (SQLite's synchronous
/// collection, the portable collection on each engine) runs the whole table
/// (`DocumentConformanceTests`).
enum DocumentPredicateTable {
    static let documents: [Document] = [
        ["name": "int", "n": 41, "s": "Paris", "b": true, "a": [1, 2], "o": ["city": "Paris", "zip": "75001"], "tags": ["dev", "ops"]],
        ["name": "double", "n": 41.0, "s": "paris", "b": false, "a": [1.0, 2], "o": ["zip": "75001", "city": "Paris"]],
        ["name": "fraction", "n": 2.5, "s": "Pa", "a": [2, 1], "o": ["city": "Rome", "geo": ["lat": 41.9, "tags": ["x"]]]],
        ["name": "near 2.5", "n": 2.5000000000000004, "s": "PARIS"],
        ["name": "big int", "n": 9_007_199_254_740_993, "s": "P"],
        ["name": "big double", "n": 9_007_199_254_740_992.0],
        ["name": "int max", "n": .int(Int64.max)],
        ["name": "int min", "n": .int(Int64.min)],
        ["name": "tiny", "n": .double(.leastNonzeroMagnitude)],
        ["name": "huge", "n": 1.7976931348623157e308],
        ["name": "negative zero", "n": -0.0],
        ["name": "zero", "n": 0, "s": ""],
        ["name": "negative", "n": -12, "s": "Zürich"],
        ["name": "string number", "n": "41", "s": "41"],
        ["name": "null", "n": nil, "s": nil, "b": nil, "o": nil],
        ["name": "missing"],
        ["name": "bool", "n": true, "s": true],
        ["name": "nfc", "s": "café", "tags": ["café"]],
        ["name": "nfd", "s": "cafe\u{301}", "tags": ["cafe\u{301}", "dev"]],
        ["name": "kelvin", "s": "\u{212A}elvin", "\u{212A}": 1],
        ["name": "plain K", "s": "Kelvin", "K": 2],
        ["name": "crlf", "s": "a\r\nb"],
        ["name": "nul", "s": "a\u{0}b", "tags": ["a\u{0}b", "x"]],
        ["name": "a", "s": "a", "tags": ["a"]],
        ["name": "wildcards", "s": "100%_done*[x]?"],
        ["name": "emoji", "s": "👍🏽 ok", "tags": ["👍🏽"]],
        ["name": "keys", "a.b": 1, "q\"uote": "x", "back\\slash": 2, "a": ["b": 5], "é": 1, "-1": "minus"],
        ["name": "numeric keys", "a": ["0": "zero-key", "1": 1], "list": [["k": "v"], 10, "x"]],
        ["name": "nested arrays", "list": [[1, 2], ["a", "b"]], "tags": [1, "dev", nil, ["dev"]]],
        ["name": "empty", "s": "", "a": [], "o": [:], "tags": []],
    ]

    /// One query of the table.
    struct Query: CustomStringConvertible, Sendable {
        let label: String
        let predicate: DocumentPredicate?
        var sort: [DocumentSort] = []
        var limit: Int?
        var offset = 0

        var description: String { label }

        /// What the Swift evaluator selects from `documents` (as added, in insertion order).
        func expected(from documents: [Document]) -> [String] {
            let matching = documents.filter { predicate?.matches($0) ?? true }
            return Self.slice(DocumentPredicateTable.names(DocumentSort.sorted(matching, by: sort)), limit: limit, offset: offset)
        }

        /// `names` from `offset` on, at most `limit` of them.
        static func slice(_ names: [String], limit: Int?, offset: Int) -> [String] {
            Array(names.dropFirst(offset).prefix(limit ?? .max))
        }
    }

    static let queries: [Query] = [
        // Equality on numbers, strings, booleans, null.
        Query(label: "int equal", predicate: DocumentField("n") == 41),
        Query(label: "double equal", predicate: DocumentField("n") == 41.0),
        Query(label: "not equal", predicate: DocumentField("n") != 41),
        Query(label: "equal a decimal", predicate: DocumentField("n") == 2.5),
        Query(label: "a last-digit neighbour", predicate: DocumentField("n") == 2.5000000000000004),
        Query(label: "beyond 2^53 as an int", predicate: DocumentField("n") == 9_007_199_254_740_993),
        Query(label: "beyond 2^53 as a double", predicate: DocumentField("n") == 9_007_199_254_740_992.0),
        Query(label: "int max", predicate: DocumentField("n") == .int(Int64.max)),
        Query(label: "negative zero", predicate: DocumentField("n") == -0.0),
        Query(label: "the smallest decimal", predicate: DocumentField("n") == .double(.leastNonzeroMagnitude)),
        Query(label: "number as a string", predicate: DocumentField("n") == "41"),
        Query(label: "string equal", predicate: DocumentField("s") == "Paris"),
        Query(label: "string case", predicate: DocumentField("s") == "paris"),
        Query(label: "empty string", predicate: DocumentField("s") == ""),
        Query(label: "composed equals decomposed", predicate: DocumentField("s") == "café"),
        Query(label: "Kelvin sign equals K", predicate: DocumentField("s") == "Kelvin"),
        Query(label: "boolean true", predicate: DocumentField("b") == true),
        Query(label: "boolean false", predicate: DocumentField("b") == false),
        Query(label: "true is not 1", predicate: DocumentField("n") == true),
        Query(label: "equal null", predicate: DocumentField("n") == nil),
        Query(label: "not equal null", predicate: DocumentField("n") != nil),
        // Ranges.
        Query(label: "less", predicate: DocumentField("n") < 41),
        Query(label: "less or equal", predicate: DocumentField("n") <= 41),
        Query(label: "greater than a decimal", predicate: DocumentField("n") > 2.5),
        Query(label: "greater or equal a decimal", predicate: DocumentField("n") >= 2.5),
        Query(label: "greater than 2^53", predicate: DocumentField("n") > 9_007_199_254_740_992),
        Query(label: "at least int max", predicate: DocumentField("n") >= .int(Int64.max)),
        Query(label: "between", predicate: DocumentField("n") > 0 && DocumentField("n") <= 41),
        Query(label: "positive and tiny", predicate: DocumentField("n") > 0 && DocumentField("n") < 1e-300),
        Query(label: "the largest decimal", predicate: DocumentField("n") >= 1.7976931348623157e308),
        Query(label: "string less", predicate: DocumentField("s") < "Paris"),
        Query(label: "string greater", predicate: DocumentField("s") > "P"),
        Query(label: "non-ASCII order", predicate: DocumentField("s") > "Z"),
        Query(label: "string order on numbers", predicate: DocumentField("n") < "5"),
        // In.
        Query(label: "in mixed", predicate: DocumentField("n").in([41, "41", true, nil])),
        Query(label: "in strings", predicate: DocumentField("s").in(["Paris", "a", "café"])),
        Query(label: "in empty", predicate: DocumentField("n").in([])),
        // Missing and null.
        Query(label: "is nil", predicate: DocumentField("b").isNil),
        Query(label: "exists", predicate: !DocumentField("s").isNil),
        Query(label: "missing everywhere", predicate: DocumentField("nowhere").isNil),
        // Text.
        Query(label: "contains", predicate: DocumentField("s").contains("ar")),
        Query(label: "contains empty", predicate: DocumentField("s").contains("")),
        Query(label: "contains e (not in é)", predicate: DocumentField("s").contains("e")),
        Query(label: "contains CR", predicate: DocumentField("s").contains("\r")),
        Query(label: "contains é", predicate: DocumentField("s").contains("é")),
        Query(label: "contains NUL", predicate: DocumentField("s").contains("\u{0}")),
        Query(label: "begins with", predicate: DocumentField("s").beginsWith("Pa")),
        Query(label: "begins with empty", predicate: DocumentField("s").beginsWith("")),
        Query(label: "ends with", predicate: DocumentField("s").endsWith("is")),
        Query(label: "ends with a combining mark", predicate: DocumentField("s").endsWith("\u{301}")),
        Query(label: "like is case-sensitive", predicate: DocumentField("s").like("Pa*")),
        Query(label: "like[c] ignores case", predicate: DocumentField("s").like("pa*", caseInsensitive: true)),
        Query(label: "like ?", predicate: DocumentField("s").like("?a*")),
        Query(label: "like, escaped wildcards", predicate: DocumentField("s").like("*\\*\\[x]\\?")),
        Query(label: "like, SQL's % and _ are literal", predicate: DocumentField("s").like("100%_done*")),
        Query(label: "like, SQL's % alone", predicate: DocumentField("s").like("%")),
        Query(label: "like a trailing backslash", predicate: DocumentField("s").like("a\\")),
        Query(label: "like across a NUL", predicate: DocumentField("s").like("a*")),
        Query(label: "like non-ASCII", predicate: DocumentField("s").like("z*", caseInsensitive: true)),
        // Arrays and objects.
        Query(label: "array contains", predicate: DocumentField("tags").contains("dev")),
        Query(label: "array contains composed", predicate: DocumentField("tags").contains("café")),
        Query(label: "array contains a string with NUL", predicate: DocumentField("tags").contains("a\u{0}b")),
        Query(label: "array contains emoji", predicate: DocumentField("tags").contains("👍🏽")),
        Query(label: "whole array", predicate: DocumentField("a") == [1, 2]),
        Query(label: "whole array of decimals", predicate: DocumentField("a") == [1.0, 2.0]),
        Query(label: "empty array", predicate: DocumentField("a") == []),
        Query(label: "whole object", predicate: DocumentField("o") == ["city": "Paris", "zip": "75001"]),
        Query(label: "empty object", predicate: DocumentField("o") == [:]),
        Query(label: "not the whole array", predicate: DocumentField("a") != [2, 1]),
        // Paths.
        Query(label: "nested path", predicate: DocumentField("o.city") == "Paris"),
        Query(label: "deep nested path", predicate: DocumentField("o.geo.lat") > 40),
        Query(label: "array index", predicate: DocumentField("a.0") == 1),
        Query(label: "numeric object key", predicate: DocumentField("a.0") == "zero-key"),
        Query(label: "index then key", predicate: DocumentField("list.0.k") == "v"),
        Query(label: "index then index", predicate: DocumentField("list.0.1") == 2),
        Query(label: "negative index", predicate: DocumentField("list.-1") == "x"),
        Query(label: "key -1", predicate: DocumentField("-1") == "minus"),
        Query(label: "key with a dot", predicate: DocumentField(DocumentPath(components: ["a.b"])) == 1),
        Query(label: "dotted path into an object", predicate: DocumentField("a.b") == 5),
        Query(label: "key with a quote", predicate: DocumentField(DocumentPath(components: ["q\"uote"])) == "x"),
        Query(label: "key with a backslash", predicate: DocumentField(DocumentPath(components: ["back\\slash"])) == 2),
        Query(label: "non-ASCII key", predicate: DocumentField("é") == 1),
        Query(label: "K finds the Kelvin sign key", predicate: DocumentField("K") >= 1),
        // And, or, not.
        Query(label: "not", predicate: !(DocumentField("n") == 41)),
        Query(label: "and", predicate: DocumentField("n") > 0 && DocumentField("s").isNil),
        Query(label: "or", predicate: DocumentField("n").isNil || DocumentField("s").like("*a*")),
        Query(label: "not or", predicate: !(DocumentField("n") > 10 || DocumentField("s") == "paris")),
        Query(label: "not of undecided", predicate: !(DocumentField("s") == "café") && DocumentField("s") != nil),
        Query(label: "empty and", predicate: .and([])),
        Query(label: "empty or", predicate: .or([])),
        Query(label: "by Id", predicate: DocumentField("Id") == "no such id"),
        // Sorting, limit and offset.
        Query(label: "all", predicate: nil),
        Query(label: "numbers ascending", predicate: nil, sort: [DocumentField("n").ascending]),
        Query(label: "numbers descending", predicate: nil, sort: [DocumentField("n").descending]),
        Query(label: "strings ascending", predicate: nil, sort: [DocumentField("s").ascending]),
        Query(label: "strings descending, then names", predicate: nil, sort: [DocumentField("s").descending, DocumentField("name").ascending]),
        Query(label: "arrays", predicate: nil, sort: [DocumentField("a").ascending]),
        Query(label: "objects descending", predicate: nil, sort: [DocumentField("o").descending]),
        Query(label: "array element, then numbers", predicate: nil, sort: [DocumentField("tags.0").ascending, DocumentField("n").descending]),
        Query(label: "a missing field keeps insertion order", predicate: nil, sort: [DocumentField("nowhere").ascending]),
        Query(label: "three keys", predicate: nil, sort: [DocumentField("o.city").ascending, DocumentField("b").descending, DocumentField("n").ascending]),
        Query(label: "booleans", predicate: nil, sort: [DocumentField("b").ascending]),
        Query(label: "filtered and sorted", predicate: DocumentField("name") != "int", sort: [DocumentField("n").ascending]),
        Query(label: "limit", predicate: nil, sort: [DocumentField("n").ascending], limit: 5),
        Query(label: "offset", predicate: nil, sort: [DocumentField("n").descending], offset: 25),
        Query(label: "limit and offset", predicate: DocumentField("s") != nil, sort: [DocumentField("s").ascending], limit: 4, offset: 3),
        Query(label: "offset past the end", predicate: nil, limit: 3, offset: 100),
        Query(label: "limit zero", predicate: nil, limit: 0),
        Query(label: "limit on undecided rows", predicate: DocumentField("s").contains("a"), limit: 2, offset: 1),
    ]

    /// The documents' names, in order.
    static func names(_ documents: [Document]) -> [String] {
        documents.map { $0["name"]?.stringValue ?? "?" }
    }
}
