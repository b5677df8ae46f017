import Testing

@testable import Persistance

private struct Note: Record, Codable {
    var id: Int64?
    var title: String
    var body: String
}

/// The README's full-text search example, verbatim, with its commented results checked.
@Suite struct ReadmeFullTextExampleTests {
    @Test func fullTextExample() throws {
        let notes = Table<Note>("note", primaryKey: "id", columns: [
            .integer("id", primaryKey: .autoincrement),
            .text("title", notNull: true),
            .text("body", notNull: true),
        ])
        let noteSearch = FullTextIndex("note_search", on: notes, columns: ["title", "body"])

        let conn = try Connection.inMemory()
        try noteSearch.create(in: conn)               // creates the table if needed; indexes its rows
        try notes.insert(contentsOf: [
            Note(id: nil, title: "Le Café de Flore", body: "un café crème, boulevard Saint-Germain"),
            Note(id: nil, title: "Tea", body: "green tea, black tea"),
        ], in: conn)

        let hits = try noteSearch.search("cafe", limit: 10,         // every word, any order; accents folded
            snippet: FullTextSnippet(column: "body", words: 6),
            highlight: FullTextHighlight(column: "title", open: "<b>", close: "</b>"), in: conn)

        let teaNotes = try notes.query()                            // a filter for the query builder
            .filter(noteSearch.matches(.prefix("te")) && Column("id") > 0)
            .fetchAll(conn)                                         // [Tea]

        #expect(hits.count == 1)
        #expect(hits[0].record.title == "Le Café de Flore")
        #expect(hits[0].highlighted == "Le <b>Café</b> de Flore")
        #expect(hits[0].snippet == "un [café] crème, boulevard Saint-Germain")
        #expect(hits[0].rank < 0)
        #expect(teaNotes.map(\.title) == ["Tea"])
    }
}
