import Foundation
import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// Nothing passed to the table API — values, column names, table names, `WHERE` fragments —
/// can change the shape of the SQL it runs: values are stored verbatim, a bad name or
/// fragment is an error, and the schema and the other rows are unchanged afterwards.
@Suite struct TableInjectionTests {
    private let players = RecordFixtures.players

    /// Runs `body` on a fresh database holding players Ann and Bob, then checks that the
    /// schema is what it was before `body` and that Ann and Bob are still there.
    private func withPlayers(_ body: (Connection) throws -> Void) throws {
        try withTemporaryConnection { conn, _ throws in
            try players.insert(contentsOf: [Player(id: nil, name: "Ann", score: 10), Player(id: nil, name: "Bob", score: 3)], in: conn)
            let schema = try QueryFixture.schema(conn)
            try body(conn)
            #expect(try QueryFixture.schema(conn) == schema)
            #expect(try players.findAll(where: "name", isIn: ["Ann", "Bob"], in: conn).count == 2)
        }
    }

    @Test(arguments: HostileValueTests.hostileStrings)
    func hostileValuesAreStoredVerbatimByEveryCall(hostile: String) throws {
        try withPlayers { conn throws in
            var player = Player(id: nil, name: hostile, score: 1, age: 7)
            try players.insert(&player, in: conn)
            let id = try #require(player.id)
            #expect(try players.find(primaryKey: id, in: conn)?.name == hostile)
            #expect(try players.findAll(where: "name", equals: hostile, in: conn).map(\.id) == [id])
            #expect(try players.findAll(where: "name", isIn: [hostile, "Ann"], in: conn).count == 2)
            #expect(try players.findAll(where: "name = :name", ["name": hostile], in: conn).map(\.id) == [id])
            #expect(try players.findFirst(where: "name = ? AND age = ?", [hostile, 7], in: conn)?.id == id)
            #expect(try players.count(where: "name = :name", ["name": hostile], in: conn) == 1)
            #expect(try players.update(["age": hostile.utf8.count], where: "name = :name", ["name": hostile], in: conn) == 1)
            #expect(try players.update(["score": 2], forPrimaryKey: id, in: conn))
            try players.upsert(Player(id: nil, name: hostile, score: 5), uniqueKey: "name", in: conn)
            #expect(try players.findAll(where: "name", equals: hostile, in: conn).map(\.score) == [5])
            #expect(try players.deleteAll(where: "name", equals: hostile, in: conn) == 1)
            let insertedID = try players.insertValue(hostile, forColumn: "name", in: conn)
            #expect(try players.find(primaryKey: insertedID, in: conn)?.name == hostile)
            #expect(try players.delete(primaryKey: insertedID, in: conn))
            #expect(try players.count(in: conn) == 2)
        }
    }

    /// A name that is no column is an error for every call that takes a column name — never a
    /// condition that holds (SQLite before 3.29 reads an unknown quoted name as a string, so a
    /// value equal to the name would match every row).
    @Test(arguments: ["bogus", "name\" IS NOT NULL OR \"name", "\"; DROP TABLE player; --", "name\u{0}\" OR 1=1 --", "Name "])
    func unknownOrHostileColumnNamesAreErrors(column: String) throws {
        try withPlayers { conn throws in
            #expect(throws: DatabaseError.self) { try players.findAll(where: column, equals: column, in: conn) }
            #expect(throws: DatabaseError.self) { try players.findAll(where: column, isIn: [column], in: conn) }
            #expect(throws: DatabaseError.self) { try players.deleteAll(where: column, equals: column, in: conn) }
            #expect(throws: DatabaseError.self) { try players.update([column: 1], forPrimaryKey: 1, in: conn) }
            #expect(throws: DatabaseError.self) { try players.update([column: 1], where: "1 = 1", in: conn) }
            #expect(throws: DatabaseError.self) {
                try players.upsert(Player(id: nil, name: "Ann", score: 0), uniqueKey: column, in: conn)
            }
            #expect(throws: DatabaseError.self) { try players.insertValue(column, forColumn: column, in: conn) }
            #expect(try players.count(in: conn) == 2)
        }
    }

    @Test(arguments: [
        "1 = 1; DROP TABLE player", "1); DROP TABLE player; --", "name = 'x'; DELETE FROM player", "1 = 1 --\n; DROP TABLE player",
    ])
    func fragmentsCannotSmuggleASecondStatement(fragment: String) throws {
        try withPlayers { conn throws in
            #expect(throws: DatabaseError.self) { try players.findAll(where: fragment, in: conn) }
            #expect(throws: DatabaseError.self) { try players.findFirst(where: fragment, in: conn) }
            #expect(throws: DatabaseError.self) { try players.count(where: fragment, in: conn) }
            #expect(throws: DatabaseError.self) { try players.deleteAll(where: fragment, in: conn) }
            #expect(throws: DatabaseError.self) { try players.update(["score": 0], where: fragment, in: conn) }
            #expect(throws: DatabaseError.self) { try players.findAll(sql: "SELECT * FROM player WHERE \(fragment)", in: conn) }
            #expect(throws: DatabaseError.self) { try players.count(sql: "SELECT count(*) FROM player WHERE \(fragment)", in: conn) }
            #expect(try players.count(in: conn) == 2)
        }
    }

    /// Fragments too deep or too long for SQLite fail with its error, never crash.
    @Test func hugeFragmentsAreClearErrors() throws {
        try withPlayers { conn throws in
            let ors = Array(repeating: "score = ?", count: 10_000).joined(separator: " OR ")
            let error = #expect(throws: DatabaseError.self) {
                try players.findAll(where: ors, StatementArguments(Array(repeating: 1, count: 10_000)), in: conn)
            }
            #expect(error?.resultCode == .error, "\(String(describing: error))")
            let nested = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
            #expect(throws: DatabaseError.self) { try players.count(where: nested, in: conn) }
            #expect(throws: DatabaseError.self) { try players.deleteAll(where: nested, in: conn) }
        }
    }

    /// A table whose name and column names are full of quotes, semicolons and keywords works
    /// like any other, and touches nothing else.
    @Test func hostileDeclarationsStayIdentifiers() throws {
        let odd = Table<Row>("player\"; DROP TABLE player; --", primaryKey: "we\"ird", columns: [
            .integer("we\"ird", primaryKey: .autoincrement),
            .text("a;b", notNull: true, unique: true),
            .text("select"),
            .text("x'y); DROP TABLE player; --"),
        ], indexes: [.index("idx\"; DROP TABLE player; --", on: ["select"])])
        try withTemporaryConnection { conn, _ throws in
            try players.create(in: conn)
            let id = try odd.insert(["a;b": "one", "select": "kw", "x'y); DROP TABLE player; --": "q"], in: conn)
            #expect(try odd.find(primaryKey: id, in: conn)?["select"] == "kw")
            #expect(try odd.findAll(where: "x'y); DROP TABLE player; --", equals: "q", in: conn).count == 1)
            #expect(try odd.update(["select": "other"], forPrimaryKey: id, in: conn))
            try odd.upsert(["a;b": "one", "select": "upserted"], uniqueKey: "a;b", in: conn)
            #expect(try odd.findAll(where: "select", equals: "upserted", in: conn).count == 1)
            try odd.truncate(in: conn)
            #expect(try odd.count(in: conn) == 0)
            let names = try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            #expect(names == ["idx\"; DROP TABLE player; --", "player", "player\"; DROP TABLE player; --", "player_score"])
        }
    }

    /// A NUL in a table, column or index name cannot be passed to SQLite intact: every
    /// operation fails with an error and creates nothing.
    @Test func namesWithNULAreErrors() throws {
        let tables = [
            Table<Row>("t\u{0}\"; DROP TABLE player; --", columns: [.integer("id")]),
            Table<Row>("t", columns: [.integer("id\u{0}\"; DROP TABLE player; --")]),
            Table<Row>("t", columns: [.integer("id")], indexes: [.index("i\u{0}x", on: ["id"])]),
        ]
        try withPlayers { conn throws in
            for table in tables {
                #expect(throws: DatabaseError.self) { try table.create(in: conn) }
                #expect(throws: DatabaseError.self) { try table.insert(Row([("id", 1)]), in: conn) }
                #expect(throws: DatabaseError.self) { try table.count(in: conn) }
            }
        }
    }
}
