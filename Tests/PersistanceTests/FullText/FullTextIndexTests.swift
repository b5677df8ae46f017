import Foundation
import Testing

@testable import Persistance

/// Full-text indexes: the same tests run on the engine's own dialect (FTS5 on the
/// `SystemSQLite` build, FTS4 on the `SQLCipher` build) and, where the engine has FTS5, on
/// FTS4 too, so both dialects are checked on every build that can run them.
@Suite struct FullTextIndexTests {
    struct Note: Record, Codable, Equatable {
        var id: Int64?
        var title: String
        var body: String
        var archived: Bool = false
    }

    static let notes = Table<Note>("note", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("title", notNull: true),
        .text("body", notNull: true),
        .integer("archived", notNull: true, default: 0),
    ])

    /// The dialects this engine runs: its own, and FTS4 as well where its own is FTS5.
    static let dialects: [FullTextDialect] = SQLiteEngine.supportsFTS5
        ? [FullTextDialect(isFTS5: true), FullTextDialect(isFTS5: false)]
        : [FullTextDialect(isFTS5: false)]

    static func index(_ dialect: FullTextDialect, name: String = "note_search", table: Table<Note> = notes)
        -> FullTextIndex<Note>
    {
        FullTextIndex(name, on: table, columns: ["title", "body"], tokenizer: .unicode61(), dialect: dialect)
    }

    static let seed = [
        Note(id: nil, title: "Le Café de Flore", body: "Un café crème et une crème brûlée, boulevard Saint-Germain"),
        Note(id: nil, title: "Tea", body: "Green tea, black tea, and more tea"),
        Note(id: nil, title: "Привет мир", body: "Ελληνικά και русский текст, ÉCOLE normale"),
        Note(id: nil, title: "Coffee notes", body: "espresso, cafe au lait"),
    ]

    private func titles(_ matches: [FullTextMatch<Note>]) -> [String] {
        matches.map(\.record.title)
    }

    @Test(arguments: dialects) func createIndexesExistingRowsAndUsesTheEnginesModule(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            let search = Self.index(dialect)
            try search.create(in: conn)
            try search.create(in: conn)  // a second create changes nothing
            let sql = try conn.fetchOne(String.self, "SELECT sql FROM sqlite_master WHERE name = 'note_search'")
            #expect(sql?.contains(dialect.isFTS5 ? "fts5" : "fts4") == true)
            #expect(try search.exists(in: conn))
            #expect(Set(titles(try search.search("cafe", in: conn))) == ["Le Café de Flore", "Coffee notes"])
        }
    }

    @Test(arguments: dialects) func resultsComeBestFirst(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            try Self.notes.insert(contentsOf: [
                Note(id: nil, title: "Tea once", body: "a long text about many things where tea appears once among words"),
            ], in: conn)
            let matches = try search.search("tea", in: conn)
            #expect(titles(matches) == ["Tea", "Tea once"])
            #expect(matches[0].rank < matches[1].rank)
            #expect(titles(try search.search("tea", limit: 1, in: conn)) == ["Tea"])
        }
    }

    @Test(arguments: dialects) func triggersFollowEveryWrite(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            var note = Note(id: nil, title: "Draft", body: "nothing yet")
            try Self.notes.insert(&note, in: conn)
            #expect(try search.search("nothing", in: conn).count == 1)

            note.body = "a sonnet about rivers"
            #expect(try Self.notes.update(note, in: conn))
            #expect(try search.search("nothing", in: conn).isEmpty)
            #expect(try search.search("rivers", in: conn).map(\.record) == [note])

            try conn.execute("UPDATE note SET title = 'Poem' WHERE id = ?", [note.id])
            #expect(titles(try search.search("poem", in: conn)) == ["Poem"])

            #expect(try Self.notes.delete(note, in: conn))
            #expect(try search.search("rivers", in: conn).isEmpty)

            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            try Self.notes.truncate(in: conn)
            #expect(try search.search("tea", in: conn).isEmpty)
            let integrity = try conn.fetchOne(Int.self, "SELECT count(*) FROM note_search")
            #expect(integrity == 0)
        }
    }

    @Test(arguments: dialects) func queryFormsMatchWhatTheySay(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            #expect(titles(try search.search(.phrase("crème brûlée"), in: conn)) == ["Le Café de Flore"])
            #expect(try search.search(.phrase("brûlée crème"), in: conn).isEmpty)
            #expect(try search.search(.allWords("green espresso"), in: conn).isEmpty)
            #expect(Set(titles(try search.search(.anyWord("green espresso"), in: conn))) == ["Tea", "Coffee notes"])
            #expect(Set(titles(try search.search(.prefix("esp"), in: conn))) == ["Coffee notes"])
            #expect(titles(try search.search(.raw("tea"), in: conn)) == ["Tea"])
        }
    }

    @Test(arguments: dialects) func nonASCIITextFoldsCaseAndDiacritics(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            #expect(titles(try search.search("ПРИВЕТ", in: conn)) == ["Привет мир"])
            #expect(titles(try search.search("ΕΛΛΗΝΙΚΆ", in: conn)) == ["Привет мир"])
            #expect(titles(try search.search("école", in: conn)) == ["Привет мир"])
            #expect(titles(try search.search("CREME", in: conn)) == ["Le Café de Flore"])
        }
    }

    @Test(arguments: dialects) func hostileSearchTextIsOnlyWords(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            for text in ["\"tea", "tea\" OR \"café", "title:tea", "tea NOT green", "NEAR(tea black)", "-tea", "tea*", "'; DROP TABLE note; --"] {
                _ = try search.search(.allWords(text), in: conn)
                _ = try search.search(.anyWord(text), in: conn)
                _ = try search.search(.phrase(text), in: conn)
                _ = try search.search(.prefix(text), in: conn)
            }
            #expect(titles(try search.search(.anyWord("title:tea"), in: conn)) == ["Tea"])
            #expect(try Self.notes.count(in: conn) == Self.seed.count)
            for empty in ["", "   ", "\"*:-()"] {
                #expect(try search.search(FullTextQuery.allWords(empty), in: conn).isEmpty)
                #expect(try Self.notes.query().filter(search.matches(.anyWord(empty))).fetchAll(conn).isEmpty)
            }
        }
    }

    @Test(arguments: dialects) func queryBuilderFiltersByMatch(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            try Self.notes.insert(contentsOf: [Note(id: nil, title: "Old café", body: "closed", archived: true)], in: conn)
            let open = try Self.notes.query()
                .filter(search.matches("cafe") && Column("archived") == false)
                .order(Column("id"))
                .fetchAll(conn)
            #expect(open.map(\.title) == ["Le Café de Flore", "Coffee notes"])
            #expect(try Self.notes.query().filter(search.matches("cafe")).fetchCount(conn) == 3)
        }
    }

    @Test(arguments: dialects) func snippetsAndHighlightsMarkTheMatches(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let search = Self.index(dialect)
            try search.create(in: conn)
            try Self.notes.insert(contentsOf: Self.seed, in: conn)
            let matches = try search.search(
                "café", snippet: FullTextSnippet(column: "body", words: 4, open: "<b>", close: "</b>", ellipsis: "…"),
                highlight: FullTextHighlight(column: "title", open: "«", close: "»"), in: conn)
            let byTitle = Dictionary(uniqueKeysWithValues: matches.map { ($0.record.title, $0) })
            let flore = try #require(byTitle["Le Café de Flore"])
            #expect(flore.highlighted == "Le «Café» de Flore")
            let snippet = try #require(flore.snippet)
            #expect(snippet.contains("<b>café</b>"))
            #expect(snippet.hasSuffix("…"))
            let coffee = try #require(byTitle["Coffee notes"])
            #expect(coffee.highlighted == "Coffee notes")
        }
    }

    @Test(arguments: dialects) func quotesInNamesAreQuoted(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let table = Table<Note>("my \"odd\" 'notes'", primaryKey: "id", columns: Self.notes.columns)
            let search = Self.index(dialect, name: "odd \"search\" 'idx'", table: table)
            try search.create(in: conn)
            try table.insert(contentsOf: Self.seed, in: conn)
            #expect(titles(try search.search("tea", in: conn)) == ["Tea"])
            try search.drop(in: conn)
            #expect(try !search.exists(in: conn))
            try table.insert(contentsOf: Self.seed, in: conn)  // no trigger left behind
            #expect(try table.count(in: conn) == 2 * Self.seed.count)
        }
    }

    @Test(arguments: dialects) func badDeclarationsAndArgumentsAreTypedErrors(dialect: FullTextDialect) throws {
        try withTemporaryConnection { conn, _ throws in
            let unknown = FullTextIndex("s", on: Self.notes, columns: ["title", "nope"], tokenizer: .ascii, dialect: dialect)
            do {
                try unknown.create(in: conn)
                Issue.record("expected an invalid index error")
            } catch {
                #expect(isDatabaseError(error, .invalidFullTextIndex))
            }
            #expect(try !unknown.exists(in: conn))
            let none = FullTextIndex("s", on: Self.notes, columns: [], tokenizer: .ascii, dialect: dialect)
            let twice = FullTextIndex("s", on: Self.notes, columns: ["body", "BODY"], tokenizer: .ascii, dialect: dialect)
            for index in [unknown, none, twice] {
                do {
                    _ = try index.search("x", in: conn)
                    Issue.record("expected an invalid index error")
                } catch {
                    #expect(isDatabaseError(error, .invalidFullTextIndex))
                }
            }

            let search = Self.index(dialect)
            try search.create(in: conn)
            let failures: [(String, DatabaseError.Kind, () throws -> Void)] = [
                ("snippet column", .invalidFullTextIndex, { _ = try search.search("x", snippet: FullTextSnippet(column: "archived"), in: conn) }),
                ("snippet words", .misuse, { _ = try search.search("x", snippet: FullTextSnippet(column: "body", words: 0), in: conn) }),
                ("limit", .misuse, { _ = try search.search("x", limit: -1, in: conn) }),
                ("raw syntax", .sqlite, { _ = try search.search(.raw("\"unbalanced"), in: conn) }),
            ]
            for (label, kind, failing) in failures {
                do {
                    try failing()
                    Issue.record("\(label): expected an error")
                } catch {
                    #expect(isDatabaseError(error, kind), "\(label): \(error)")
                }
            }
        }
    }

    @Test func searchingAMissingIndexFailsWithSQLitesError() throws {
        try withTemporaryConnection { conn, _ throws in
            try Self.notes.create(in: conn)
            do {
                _ = try Self.index(.current).search("x", in: conn)
                Issue.record("expected no such table")
            } catch {
                #expect(isDatabaseError(error, code: .error))
            }
        }
    }

    /// FTS4's rank, computed from `matchinfo`, orders rows as FTS5's `bm25()` does, with
    /// values close to it (FTS4 reports average lengths as whole numbers of tokens).
    @Test(.enabled(if: SQLiteEngine.supportsFTS5)) func fts4RankFollowsFTS5Bm25() throws {
        try withTemporaryConnection { conn, _ throws in
            try Self.notes.insert(contentsOf: Self.seed + Self.seed.map { Note(id: nil, title: $0.body, body: $0.title) }, in: conn)
            var results = [[FullTextMatch<Note>]]()
            for (name, dialect) in [("five", FullTextDialect(isFTS5: true)), ("four", FullTextDialect(isFTS5: false))] {
                let search = FullTextIndex(name, on: Self.notes, columns: ["body"], tokenizer: .unicode61(), dialect: dialect)
                try search.create(in: conn)
                results.append(try search.search(.anyWord("tea café crème"), in: conn))
            }
            #expect(results[0].count == 5)
            #expect(results[0].map(\.record.id) == results[1].map(\.record.id))
            for (five, four) in zip(results[0], results[1]) {
                #expect(five.rank < 0)
                #expect(abs(five.rank - four.rank) < 0.1 * abs(five.rank))
            }
        }
    }

    @Test func malformedMatchInfoHasNoRank() {
        let values: [UInt32] = [1, 1, 3, 4]
        let rank = values.withUnsafeBufferPointer(FullTextRankFunction.rank(matchInfo:))
        #expect(rank == nil)
    }
}
