import Foundation
import Testing

@testable import Persistance

/// Raw SQL written with interpolation binds every value and quotes identifiers on request.
@Suite struct SQLInterpolationTests {
    private func withPlayers(_ body: (Connection) throws -> Void) throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score REAL, avatar BLOB)")
            try conn.execute("INSERT INTO player(id, name, score) VALUES (1, 'Ann', 10), (2, 'Bob', 3), (3, 'Cid', 7)")
            try body(conn)
        }
    }

    @Test func valuesBecomeParametersNotText() {
        let name = "O'Brien\"; DROP TABLE player; --"
        let sql: SQL = "SELECT id FROM player WHERE name = \(name) AND score > \(2.5) AND id IN \([1, 2] as [Int64])"
        #expect(sql.text == "SELECT id FROM player WHERE name = ? AND score > ? AND id IN (?, ?)")
        #expect(sql.arguments == [name, 2.5, 1, 2])
    }

    @Test func hostileTextIsStoredAsItIs() throws {
        try withPlayers { conn throws in
            let name = "O'Brien'); DROP TABLE player; --"
            try conn.execute(literal: "INSERT INTO player(id, name) VALUES (\(4 as Int64), \(name))")
            #expect(try conn.fetchOne(String.self, literal: "SELECT name FROM player WHERE id = \(4 as Int64)") == name)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM player") == 4)
        }
    }

    @Test func sequencesBecomeInLists() throws {
        try withPlayers { conn throws in
            let ids: [Int64] = [3, 1, 99]
            #expect(try conn.fetchAll(String.self, literal: "SELECT name FROM player WHERE id IN \(ids) ORDER BY id") == ["Ann", "Cid"])
            let none: [Int64] = []
            #expect(try conn.fetchAll(String.self, literal: "SELECT name FROM player WHERE id IN \(none)").isEmpty)
            let names: Set = ["Bob"]
            #expect(try conn.fetchAll(literal: "SELECT * FROM player WHERE name IN \(names)").count == 1)
        }
    }

    @Test func nilBindsNullAndBlobsAreOneValue() throws {
        try withPlayers { conn throws in
            let missing: String? = nil
            #expect(try conn.fetchOne(Int.self, literal: "SELECT count(*) FROM player WHERE \(missing) IS NULL") == 3)
            let avatar = Data([0, 1, 2, 255])
            try conn.execute(literal: "UPDATE player SET avatar = \(avatar) WHERE id = \(1 as Int64)")
            let bytes: [UInt8] = [9, 8]
            try conn.execute(literal: "UPDATE player SET avatar = \(bytes) WHERE id = \(2 as Int64)")
            #expect(try conn.fetchAll(Data.self, literal: "SELECT avatar FROM player WHERE avatar IS NOT \(missing) ORDER BY id")
                == [avatar, Data(bytes)])
        }
    }

    @Test func identifiersAreQuoted() throws {
        try withTemporaryConnection { conn, _ throws in
            let table = "we\"ird table", column = "sel\"ect"
            try conn.execute(literal: "CREATE TABLE \(identifier: table)(\(identifier: column) TEXT)")
            try conn.execute(literal: "INSERT INTO \(identifier: table)(\(identifier: column)) VALUES (\("x"))")
            #expect(try conn.fetchOne(String.self, literal: "SELECT \(identifier: column) FROM \(identifier: table)") == "x")
            #expect(try conn.fetchOne(String.self, "SELECT name FROM sqlite_master") == table)
        }
    }

    @Test func piecesComposeWithTheirValuesInOrder() throws {
        try withPlayers { conn throws in
            let low: SQL = "score > \(5.0)"
            let named: SQL = "name <> \("Cid")"
            let both: SQL = "SELECT name FROM player WHERE \(low) AND \(named) ORDER BY \(identifier: "id")"
            #expect(both.text == "SELECT name FROM player WHERE score > ? AND name <> ? ORDER BY \"id\"")
            #expect(try conn.fetchAll(String.self, literal: both) == ["Ann"])
            let rows = try conn.fetchCursor(String.self, literal: both)
            #expect(try rows.next() == "Ann")
        }
    }

    @Test func unstorableValuesAndBadIdentifiersFailBeforeAnyWrite() throws {
        try withPlayers { conn throws in
            let nan = { try conn.execute(literal: "UPDATE player SET score = \(Double.nan)") }
            let nanError = try #require(throws: DatabaseError.self, performing: nan)
            #expect(nanError.kind == .encoding)
            let nul = { try conn.execute(literal: "DELETE FROM \(identifier: "player\0")") }
            #expect(throws: DatabaseError.self, performing: nul)
            #expect(try conn.fetchAll(Double.self, "SELECT score FROM player ORDER BY id") == [10, 3, 7])
        }
    }

    struct Player: Record, Codable {
        var id: Int64?
        var name: String
        var score: Double
        var avatar: Data?
    }

    @Test func expressionsTakeInterpolatedFragments() throws {
        try withPlayers { conn throws in
            let table = Table<Player>("player", primaryKey: "id", columns: [
                .integer("id", primaryKey: .autoincrement), .text("name"), .real("score"), .blob("avatar"),
            ])
            let ids: [Int64] = [1, 2]
            #expect(try table.count(where: .sql(literal: "id IN \(ids) AND name <> \("Bob")"), in: conn) == 1)
            let filtered = try table.query().filter(Column("score") > 1 && .sql(literal: "length(name) = \(3)")).fetchAll(conn)
            #expect(filtered.count == 3)
        }
    }

    /// The README's example, verbatim after the two rows it starts from.
    @Test func readmeExample() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
            try conn.execute("INSERT INTO note(title, body) VALUES ('groceries', 'eggs'), ('c''est ça', NULL)")
            let title = "c'est ça", ids: [Int64] = [1, 2]
            try conn.execute(literal: "UPDATE \(identifier: "note") SET body = \("done") WHERE title = \(title)")
            let titles = try conn.fetchAll(String.self, literal: "SELECT title FROM note WHERE id IN \(ids) ORDER BY id")
            let done = try conn.fetchOne(Int.self, literal: "SELECT count(*) FROM note WHERE body = \("done")")  // 1
            #expect(titles == ["groceries", "c'est ça"])
            #expect(done == 1)
        }
    }
}
