import Foundation
import Testing

@testable import Persistance

/// A record with a hand-written decoder, for query tests (Codable records belong to the records layer).
struct QueryTestPlayer: Record, Equatable {
    var id: Int64
    var name: String?
    var score: Double?

    static func rowDecoder(for statement: Statement) throws -> RecordDecodingFunction<QueryTestPlayer> {
        guard let id = statement.columnIndex(named: "id") else {
            throw DatabaseError(kind: .columnNotFound, message: "no column named \"id\"")
        }
        let name = statement.columnIndex(named: "name")
        let score = statement.columnIndex(named: "score")
        return RecordDecodingFunction { statement in
            QueryTestPlayer(
                id: try statement.value(at: id),
                name: try name.flatMap { try statement.value(at: $0, as: String?.self) },
                score: try score.flatMap { try statement.value(at: $0, as: Double?.self) })
        }
    }
}

/// The `player` table every query test starts from:
///
/// | id | name | score | age | team  |
/// |----|------|-------|-----|-------|
/// | 1  | Ann  | 10.0  | 30  | red   |
/// | 2  | Bob  | 3.0   | NULL| blue  |
/// | 3  | Cy   | 7.5   | 25  | red   |
/// | 4  | NULL | 8.0   | 40  | blue  |
/// | 5  | Dee  | NULL  | 22  | green |
enum QueryFixture {
    static let players = Query<QueryTestPlayer>(table: "player")
    static let rows = Query<Row>(table: "player")

    static func create(in conn: Connection) throws {
        try conn.execute("""
            CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL, age INTEGER, team TEXT);
            INSERT INTO player VALUES (1, 'Ann', 10.0, 30, 'red'), (2, 'Bob', 3.0, NULL, 'blue'),
                (3, 'Cy', 7.5, 25, 'red'), (4, NULL, 8.0, 40, 'blue'), (5, 'Dee', NULL, 22, 'green');
            CREATE INDEX player_score ON player(score);
            """)
    }

    /// Every schema object, to show that a query changed nothing it should not have.
    static func schema(_ conn: Connection) throws -> [Row] {
        try conn.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    }
}

/// Runs `body` with a fresh file database holding the `player` fixture.
func withQueryFixture<T>(_ body: (Connection) throws -> T) throws -> T {
    try withTemporaryConnection { conn, _ in
        try QueryFixture.create(in: conn)
        return try body(conn)
    }
}

/// The SQL and bound values an expression renders to.
func rendered(_ expression: any SQLExpressible) throws -> (sql: String, values: [DatabaseValue]) {
    var renderer = SQLRenderer()
    try expression.sqlExpression.render(into: &renderer)
    return (renderer.sql, renderer.values)
}

/// The ids of `query`'s rows, in order.
func queryIDs(_ query: Query<QueryTestPlayer>, _ conn: Connection) throws -> [Int64] {
    try query.fetchAll(conn).map(\.id)
}

extension Query {
    /// The same query with its column references qualified with the table's name
    /// (`"player"."score"`) or bare, whichever engine runs it.
    func qualifyingColumns(_ qualifies: Bool) -> Query {
        var query = self
        query.clauses.qualifiesColumns = qualifies
        return query
    }
}
