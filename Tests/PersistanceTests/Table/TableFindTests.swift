import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

@Suite struct TableFindTests {
    private let players = RecordFixtures.players

    @Test func findsByPrimaryKey() throws {
        try withTemporaryConnection { conn, _ throws in
            let seeded = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.find(primaryKey: 3, in: conn) == seeded[2])
            #expect(try players.find(primaryKey: 99, in: conn) == nil)
            #expect(try players.findLatest(in: conn) == seeded[3])
        }
    }

    @Test func findsByListsOfPrimaryKeysInAnyOrder() throws {
        try withTemporaryConnection { conn, _ throws in
            let seeded = try RecordFixtures.seedPlayers(in: conn)
            let found = try players.findAll(primaryKeys: [4, 1, 99], in: conn)
            #expect(Set(found.map(\.name)) == ["NULL", "Ann"])
            #expect(found.count == 2)
            #expect(try players.findAll(primaryKeys: [Int64](), in: conn) == [])
            #expect(Set(try players.findAll(in: conn).map(\.id)) == Set(seeded.map(\.id)))
        }
    }

    @Test func longListsAreSplitBelowTheParameterLimit() throws {
        try withTemporaryConnection { conn, _ throws in
            try players.insert(contentsOf: (1...1200).map { Player(id: nil, name: "p\($0)", score: 0) }, in: conn)
            #expect(try players.findAll(primaryKeys: 1...1500, in: conn).count == 1200)
            let names = (1...1100).map { "p\($0)" }
            #expect(try players.findAll(where: "name", isIn: names, in: conn).count == 1100)
            #expect(try players.delete(primaryKeys: 1...1000, in: conn) == 1000)
            #expect(try players.update(["score": 5], forPrimaryKeys: Array(1...1200), in: conn) == 200)
            #expect(try players.count(where: "score = 5", in: conn) == 200)
        }
    }

    @Test func findsWhereAFragmentHolds() throws {
        try withTemporaryConnection { conn, _ throws in
            let seeded = try RecordFixtures.seedPlayers(in: conn)
            let named = try players.findAll(where: "name = :name AND age > :age", ["name": "c'asa", "age": 2], in: conn)
            #expect(named == [seeded[2]])
            let positional = try players.findAll(where: "score >= ? ORDER BY score DESC", [3], in: conn)
            #expect(positional == [seeded[0], seeded[2], seeded[1]])
            #expect(try players.findFirst(where: "age IS NULL ORDER BY id DESC", in: conn) == seeded[3])
            #expect(try players.findFirst(where: "name = ?", ["nobody"], in: conn) == nil)
            #expect(try players.findAll(where: "name = :name", ["name": "x' OR '1'='1"], in: conn) == [])
        }
    }

    @Test func findsDistinctRows() throws {
        try withTemporaryConnection { conn, _ throws in
            let scores = Table<Row>("score", columns: [.real("value")])
            try scores.insert(contentsOf: [["value": 1], ["value": 1], ["value": 2]], in: conn)
            #expect(try scores.findAll(where: "value > 0", in: conn).count == 3)
            #expect(Set(try scores.findAll(where: "value > 0", distinct: true, in: conn)) == [["value": 1.0], ["value": 2.0]])
        }
    }

    @Test func findsWhereAColumnEqualsAValueOrNull() throws {
        try withTemporaryConnection { conn, _ throws in
            let seeded = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.findAll(where: "name", equals: "NULL", in: conn) == [seeded[3]])
            #expect(try players.findAll(where: "name", equals: "c'asa", in: conn) == [seeded[2]])
            #expect(Set(try players.findAll(where: "age", equals: Int?.none, in: conn).map(\.name)) == ["Bob", "NULL"])
            #expect(try players.findAll(where: "score", equals: 0, in: conn) == [seeded[3]])
        }
    }

    @Test func findsWhereAColumnIsInAList() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let found = try players.findAll(where: "name", isIn: ["NULL", "c'asa", "nobody"], in: conn)
            #expect(Set(found.map(\.name)) == ["NULL", "c'asa"])
            #expect(try players.findAll(where: "name", isIn: [String](), in: conn) == [])
        }
    }

    @Test func findsWithFullSQL() throws {
        try withTemporaryConnection { conn, _ throws in
            let seeded = try RecordFixtures.seedPlayers(in: conn)
            let sql = "SELECT * FROM player WHERE score BETWEEN :low AND :high ORDER BY score"
            #expect(try players.findAll(sql: sql, ["low": 1, "high": 8], in: conn) == [seeded[1], seeded[2]])
            let error = #expect(throws: DatabaseError.self) {
                try players.findAll(sql: "SELECT * FROM player; DELETE FROM player", in: conn)
            }
            #expect(error?.kind == .misuse)
            #expect(try players.count(in: conn) == 4)
        }
    }

    @Test func rowsAreRecordsToo() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let row = try #require(try RecordFixtures.rows.find(primaryKey: 2, in: conn))
            #expect(row == ["id": 2, "name": "Bob", "score": 3.0, "age": nil])
            #expect(try Player(row: row) == Player(id: 2, name: "Bob", score: 3))
        }
    }
}

@Suite struct TableCountTests {
    private let players = RecordFixtures.players

    @Test func countsAllAndWhere() throws {
        try withTemporaryConnection { conn, _ throws in
            #expect(try players.count(in: conn) == 0)
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.count(in: conn) == 4)
            #expect(try players.count(where: "age IS NULL", in: conn) == 2)
            #expect(try players.count(where: "age IS NOT NULL AND score > :score", ["score": 5], in: conn) == 2)
            #expect(try players.count(where: "name = ?", ["NULL"], in: conn) == 1)
            #expect(try players.count(where: "score = ?", [0], in: conn) == 1)
        }
    }

    @Test func countsWithFullSQL() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.count(sql: "SELECT count(DISTINCT age IS NULL) FROM player", in: conn) == 2)
            #expect(try players.count(sql: "SELECT max(age) FROM player WHERE age > ?", [100], in: conn) == 0)
            let error = #expect(throws: DatabaseError.self) {
                try players.count(sql: "SELECT name FROM player WHERE id = 1", in: conn)
            }
            #expect(error?.kind == .decoding)
        }
    }

    @Test func badArgumentsAreErrors() throws {
        try withTemporaryConnection { conn, _ throws in
            let missing = #expect(throws: DatabaseError.self) {
                try players.count(where: "name = :name", ["other": "x"], in: conn)
            }
            #expect(missing?.kind == .invalidArguments)
            let extra = #expect(throws: DatabaseError.self) {
                try players.count(where: "name = ?", ["a", "b"], in: conn)
            }
            #expect(extra?.kind == .invalidArguments)
        }
    }
}
