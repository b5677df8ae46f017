import Foundation
import Testing

@testable import Persistance

/// Queries of thousands of words: FTS4 refuses a `MATCH` of 4,096 terms or more ("FTS
/// expression tree is too large"), so the words are split over several patterns and give
/// the same rows as on FTS5. Run on each dialect the engine has (see `FullTextIndexTests`).
@Suite struct FullTextLongQueryTests {
    typealias Note = FullTextIndexTests.Note

    /// 5,000 distinct words: more than one FTS4 `MATCH` takes.
    static let words = (0..<5_000).map { "w\($0)" }

    /// "every" holds all the words, "half" the first half, "other" none of them.
    private func withNotes(_ dialect: FullTextDialect, _ body: (Connection, FullTextIndex<Note>) throws -> Void) throws {
        try withTemporaryConnection { conn, _ throws in
            try FullTextIndexTests.notes.insert(contentsOf: [
                Note(id: nil, title: "every", body: Self.words.joined(separator: " ")),
                Note(id: nil, title: "half", body: Self.words.prefix(2_500).joined(separator: " ")),
                Note(id: nil, title: "other", body: "unrelated text"),
            ], in: conn)
            let search = FullTextIndexTests.index(dialect)
            try search.create(in: conn)
            try body(conn, search)
        }
    }

    private func filtered(_ search: FullTextIndex<Note>, _ query: FullTextQuery, _ conn: Connection) throws -> Set<String> {
        Set(try FullTextIndexTests.notes.query().filter(search.matches(query)).fetchAll(conn).map(\.title))
    }

    @Test(arguments: FullTextIndexTests.dialects)
    func everyWordOfAVeryLongQuery(dialect: FullTextDialect) throws {
        try withNotes(dialect) { conn, search throws in
            let text = Self.words.joined(separator: " ")
            #expect(try search.search(.allWords(text), in: conn).map(\.record.title) == ["every"])
            #expect(try filtered(search, .allWords(text), conn) == ["every"])
            #expect(try search.search(.prefix(text), in: conn).map(\.record.title) == ["every"])
            // A word missing from the second half of the query excludes "every" too.
            let withMissing = text + " absent"
            #expect(try search.search(.allWords(withMissing), in: conn).isEmpty)
            #expect(try filtered(search, .allWords(withMissing), conn).isEmpty)
        }
    }

    @Test(arguments: FullTextIndexTests.dialects)
    func anyWordOfAVeryLongQuery(dialect: FullTextDialect) throws {
        try withNotes(dialect) { conn, search throws in
            // Only the last word of the query is in "half": it sits beyond the first 4,000.
            let query = FullTextQuery.anyWord((Self.words.suffix(2_500) + ["w0"]).joined(separator: " "))
            #expect(try filtered(search, query, conn) == ["every", "half"])
            if dialect.isFTS5 {
                #expect(Set(try search.search(query, in: conn).map(\.record.title)) == ["every", "half"])
            } else {
                let rankAllWords = { _ = try search.search(.anyWord(Self.words.joined(separator: " ")), in: conn) }
                let error = try #require(throws: DatabaseError.self, performing: rankAllWords)
                #expect(error.kind == .fullTextQueryTooLarge)
                #expect(error.message.contains("4000"))
            }
        }
    }

    @Test(arguments: FullTextIndexTests.dialects)
    func repeatedWordsCountOnce(dialect: FullTextDialect) throws {
        try withNotes(dialect) { conn, search throws in
            let repeated = Array(repeating: "w1 w2", count: 5_000).joined(separator: " ")
            #expect(Set(try search.search(.anyWord(repeated), in: conn).map(\.record.title)) == ["every", "half"])
            #expect(Set(try search.search(.allWords(repeated), in: conn).map(\.record.title)) == ["every", "half"])
        }
    }

    @Test func patternsAreSplitOnlyWhereTheEngineNeedsIt() {
        let text = Self.words.joined(separator: " ")
        let fts4 = FullTextQuery.allWords(text).match(FullTextDialect(isFTS5: false))
        #expect(fts4?.patterns.count == 2)
        #expect(FullTextQuery.allWords(text).match(FullTextDialect(isFTS5: true))?.patterns.count == 1)
        #expect(FullTextQuery.anyWord("").match(FullTextDialect(isFTS5: false)) == nil)
    }
}
