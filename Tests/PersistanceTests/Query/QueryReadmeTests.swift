import Foundation
import Testing

import Persistance

/// The README's query builder example, exactly as printed there.
@Suite struct QueryReadmeTests {
    @Test func readmeQueryExample() throws {
        let conn = try Connection.inMemory()
        try conn.execute("""
            CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL);
            INSERT INTO player(name, score) VALUES ('Ann', 10), ('Bob', 3), (NULL, 7), ('Cy', 8);
            """)
        let players = Query<Row>(table: "player")    // or `table.query()` for a declared Table

        // Typed filters, several ordering keys, a limit; every value is bound, never spliced.
        let top = try players
            .filter(Column("score") > 5 && Column("name") != nil)
            .order(Column("score").desc, Column("name"))
            .limit(10)
            .fetchAll(conn)                                                         // Ann (10.0), Cy (8.0)

        // Counts, existence and single values.
        let named = try players.filter(Column("name").in(["Ann", "Bob", "Zed"])).fetchCount(conn)      // 2
        let anyLow = try players.filter(Column("score") < 5).fetchExists(conn)                          // true
        let best = try players.select(SQLExpression.max(Column("score"))).fetchOne(Double.self, conn)  // 10.0
        let names = try players.select(Column("name")).filter(Column("name").like("%n%"))
            .order(Column("name")).fetchAll(String.self, conn)                                          // ["Ann"]

        // A raw SQL fragment where the typed expressions stop, with named arguments.
        let short = try players.filter(.sql("length(name) <= :length", ["length": 2])).fetchAll(conn)  // Cy

        // Update and delete every matching row; both return the number of rows changed.
        try players.filter(Column("name") == nil).updateAll(conn, Column("name").set(to: "Anonymous"))
        try players.filter(Column("score") < 5).deleteAll(conn)

        #expect(top == [["id": 1, "name": "Ann", "score": 10.0], ["id": 4, "name": "Cy", "score": 8.0]])
        #expect(named == 2)
        #expect(anyLow)
        #expect(best == 10)
        #expect(names == ["Ann"])
        #expect(short == [["id": 4, "name": "Cy", "score": 8.0]])
        #expect(try conn.fetchAll(String.self, "SELECT name FROM player ORDER BY id") == ["Ann", "Anonymous", "Cy"])
    }
}
