import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// SQL text with a NUL byte (SQLite stops reading at it) and where-fragments that reach
/// outside their place (unbalanced parentheses, an unterminated literal or comment) are
/// typed errors, and run nothing.
@Suite struct SQLTextTruncationTests {
    private let players = RecordFixtures.players

    /// Runs `body` with Ann (id 1, score 10) and Bob (id 2, score 3) stored, then checks both are still there.
    private func withPlayers(_ body: (Connection) throws -> Void) throws {
        try withTemporaryConnection { conn, _ throws in
            try players.insert(contentsOf: [Player(id: nil, name: "Ann", score: 10), Player(id: nil, name: "Bob", score: 3)], in: conn)
            try body(conn)
            #expect(try players.count(in: conn) == 2, "nothing was deleted")
        }
    }

    @Test func nulInRawSQLIsAnInvalidArgumentsError() throws {
        try withPlayers { conn throws in
            let sql = "DELETE FROM player WHERE id = 1\0 OR name = 'Bob'"
            let executeError = expectThrows(.invalidArguments) { try conn.execute(sql) }
            #expect(executeError?.sql == sql)
            expectThrows(.invalidArguments) { try conn.prepare("SELECT 1\0; DROP TABLE player") }
            expectThrows(.invalidArguments) { try conn.cachedStatement("SELECT 1\0") }
            expectThrows(.invalidArguments) { try conn.fetchAll("SELECT * FROM player\0 WHERE id = 1") }
            expectThrows(.invalidArguments) { try conn.execute("SELECT 1; DELETE FROM player WHERE id = 1\0 OR 1") }
            // A NUL inside a bound value is data, not SQL.
            #expect(try conn.fetchOne(String.self, "SELECT ?", ["a\0b"]) == "a\0b")
        }
    }

    @Test(arguments: [
        "id = 1\0 OR name = 'Bob'", "id = 1) OR (1 = 1", "(id = 1", "id = 1)", "name = 'Ann", "name = \"Ann", "id = 1 /* x",
        "id = 1 -- no line break", "id = [1", "id = 1; DELETE FROM player",
    ])
    func unsafeFragmentsAreInvalidArgumentsErrors(fragment: String) throws {
        try withPlayers { conn throws in
            expectThrows(.invalidArguments) { try players.count(where: fragment, in: conn) }
            expectThrows(.invalidArguments) { try players.findAll(where: fragment, in: conn) }
            expectThrows(.invalidArguments) { try players.findFirst(where: fragment, in: conn) }
            expectThrows(.invalidArguments) { try players.deleteAll(where: fragment, in: conn) }
            expectThrows(.invalidArguments) { try players.update(["score": 0], where: fragment, in: conn) }
            expectThrows(.invalidArguments) { try players.query().filter(.sql(fragment)).fetchAll(conn) }
            expectThrows(.invalidArguments) { try players.query().filter(.sql(fragment)).deleteAll(conn) }
            #expect(try players.findAll(in: conn).map(\.score) == [10, 3], "nothing was updated")
        }
    }

    @Test(arguments: [
        "name = 'it''s (not'", #"name = "we""ird)""#, "name = `a(b`", "name = [a(b]", "id = 1 /* ) */", "id = 1 -- )\n",
        "(id = 1) OR (id = 2 AND (score > 0))", "name = :name ORDER BY id", "name = 'a;b'",
    ])
    func parenthesesInLiteralsIdentifiersAndCommentsDoNotCount(fragment: String) {
        #expect(throws: Never.self) { try SQLFragment.validate(fragment) }
    }

    @Test func balancedFragmentsRun() throws {
        try withPlayers { conn throws in
            #expect(try players.count(where: "name = 'it''s (not' OR (id = 2 AND (score > 0)) -- )\n", in: conn) == 1)
            let named = try players.query().filter(.sql("name = :name /* ( */", ["name": "Ann"])).fetchAll(conn)
            #expect(named.map(\.name) == ["Ann"])
        }
    }

    @Test func theFragmentIsReportedInTheError() throws {
        try withPlayers { conn throws in
            let error = expectThrows(.invalidArguments) { try players.count(where: "id = 1) OR (1 = 1", in: conn) }
            #expect(error?.sql == "id = 1) OR (1 = 1")
            #expect(error?.message.contains("parenthesis") == true)
        }
    }
}
