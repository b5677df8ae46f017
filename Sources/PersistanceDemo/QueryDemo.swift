import Foundation
import Persistance

/// Shows the query builder: creates a `player` table in `directory` with SQL, then filters,
/// orders, limits, counts, tests existence, updates and deletes through queries, printing
/// each result.
func runQueryDemo(in directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("query-demo.sqlite").path
    let conn = try Connection(path: path)
    defer { try? conn.close() }
    try conn.execute("""
        DROP TABLE IF EXISTS player;
        CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL, team TEXT);
        INSERT INTO player(name, score, team) VALUES
            ('Ann', 10, 'red'), ('Bob', 3, 'blue'), (NULL, 7, 'blue'), ('Cy', 8, 'red'), ('c''asa', 5.5, 'green');
        """)
    let players = Query<Row>(table: "player")

    section("Query builder")
    let top = players
        .filter(Column("score") > 5 && Column("name") != nil)
        .order(Column("score").desc)
        .limit(2)
    for row in try top.fetchAll(conn) {
        print("top player:", row)
    }
    print("players named Ann or c'asa:", try players.filter(Column("name").in(["Ann", "c'asa"])).fetchCount(conn))
    print("anyone below 4 points:", try players.filter(Column("score") < 4).fetchExists(conn))
    let best = try players.select(SQLExpression.max(Column("score"))).fetchOne(Double.self, conn)
    print("best score:", best.map { String($0) } ?? "none")
    let teams = players
        .select(Column("team"), SQLExpression.countAll.aliased("players"))
        .group(by: Column("team"))
        .having(SQLExpression.countAll > 1)
        .order(Column("team"))
    for row in try teams.fetchAll(conn) {
        print("team with several players:", row)
    }
    let renamed = try players.filter(Column("name") == nil).updateAll(conn, Column("name").set(to: "Anonymous"))
    print("players renamed:", renamed)
    let raised = try players.filter(Column("team") == "blue").updateAll(conn, Column("score").set(to: Column("score") + 1))
    print("blue players given a point:", raised)
    let removed = try players.filter(Column("score") < 5).deleteAll(conn)
    print("players below 5 removed:", removed)
    let hostile = "x'); DROP TABLE player; --"
    print("players named \(hostile):", try players.filter(Column("name") == hostile).fetchCount(conn))
    print("players left:", try players.order(Column("id")).select(Column("name")).fetchAll(String.self, conn))
}
