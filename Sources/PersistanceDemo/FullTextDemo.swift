import Foundation
import Persistance

/// A recipe as the full-text demo stores it.
private struct DemoRecipe: Record, Codable {
    var id: Int64?
    var title: String
    var body: String
}

/// Shows full-text search: an index kept in step by triggers, ranked searches with
/// snippets and highlights, and a match inside a query-builder filter.
func runFullTextDemo(in directory: String) throws {
    section("Full-text search (\(SQLiteEngine.supportsFTS5 ? "FTS5" : "FTS4"))")
    let recipes = Table<DemoRecipe>("recipe", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("title", notNull: true),
        .text("body", notNull: true),
    ])
    let search = FullTextIndex("recipe_search", on: recipes, columns: ["title", "body"])

    let conn = try Connection(path: (directory as NSString).appendingPathComponent("fulltext-demo.sqlite"))
    defer { try? conn.close() }
    try search.create(in: conn)
    var tart = DemoRecipe(id: nil, title: "Tarte Tatin", body: "Caramelise the apples, cover with pastry, bake.")
    try recipes.insert(&tart, in: conn)
    try recipes.insert(contentsOf: [
        DemoRecipe(id: nil, title: "Crème brûlée", body: "Cream, vanilla and sugar; caramelise the top."),
        DemoRecipe(id: nil, title: "Apple crumble", body: "Apples under a crumble of butter, flour and sugar."),
        DemoRecipe(id: nil, title: "Lemon tart", body: "Lemons, eggs, butter and sugar in a pastry case."),
        DemoRecipe(id: nil, title: "Pavlova", body: "Meringue, cream and red fruit."),
    ], in: conn)

    for hit in try search.search("caramelise", snippet: FullTextSnippet(column: "body", words: 5), in: conn) {
        let title = hit.record.title.padding(toLength: 14, withPad: " ", startingAt: 0)
        print("\(title) rank \(String(format: "%6.3f", hit.rank))  \(hit.snippet ?? "")")
    }
    let accents = try search.search("creme brulee", highlight: FullTextHighlight(column: "title"), in: conn)
    print("\"creme brulee\" finds:", accents.compactMap(\.highlighted))

    tart.body = "Pears this time, then bake."
    try recipes.update(tart, in: conn)
    let apples = try recipes.query().filter(search.matches(.prefix("appl"))).fetchAll(conn).map(\.title)
    print("after the update, recipes with words beginning \"appl\":", apples)
}
