import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

@Suite struct TableDeleteTests {
    private let players = RecordFixtures.players

    @Test func deletesRecordsAndKeys() throws {
        try withTemporaryConnection { conn, _ throws in
            let seeded = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.delete(seeded[0], in: conn))
            #expect(try !players.delete(seeded[0], in: conn))
            #expect(try players.delete(primaryKey: 2, in: conn))
            #expect(try players.delete(contentsOf: seeded[2...], in: conn) == 2)
            #expect(try players.count(in: conn) == 0)
        }
    }

    @Test func deletesByListsOfKeys() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.delete(primaryKeys: [1, 3, 42], in: conn) == 2)
            #expect(try players.delete(primaryKeys: [Int](), in: conn) == 0)
            #expect(try players.delete(contentsOf: [], in: conn) == 0)
            #expect(try players.findAll(in: conn).map(\.name) == ["Bob", "NULL"])
        }
    }

    @Test func deletesWhereAColumnEqualsAValue() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.deleteAll(where: "name", equals: "c'asa", in: conn) == 1)
            #expect(try players.deleteAll(where: "age", equals: Int?.none, in: conn) == 2)
            #expect(try players.findAll(in: conn).map(\.name) == ["Ann"])
        }
    }

    @Test func deletesWhereAFragmentHolds() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.deleteAll(where: "score < :limit", ["limit": 5], in: conn) == 2)
            #expect(try players.deleteAll(where: "name = ?", ["Bob' OR '1'='1"], in: conn) == 0)
            #expect(try players.findAll(in: conn).map(\.name) == ["Ann", "c'asa"])
        }
    }

    @Test func aRecordWithoutPrimaryKeyCannotBeDeleted() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let error = #expect(throws: DatabaseError.self) {
                try players.delete(contentsOf: [Player(id: 1, name: "Ann", score: 0), Player(id: nil, name: "x", score: 0)], in: conn)
            }
            #expect(error?.kind == .missingPrimaryKey)
            #expect(try players.count(in: conn) == 4)
        }
    }
}

@Suite struct TableTruncateTests {
    @Test func truncateThenInsertStartsIDsAtOne() throws {
        try withTemporaryConnection { conn, _ throws in
            let players = RecordFixtures.players
            _ = try RecordFixtures.seedPlayers(in: conn)
            try players.delete(primaryKey: 4, in: conn)
            #expect(try players.insert(Player(id: nil, name: "Eve", score: 1), in: conn) == 5)
            try players.truncate(in: conn)
            #expect(try players.count(in: conn) == 0)
            #expect(try players.insert(Player(id: nil, name: "Ann", score: 1), in: conn) == 1)
        }
    }

    @Test func truncateDoesNotVacuumNorTouchOtherSequences() throws {
        try withTemporaryConnection { conn, _ throws in
            let players = RecordFixtures.players
            let other = Table<Row>("other", columns: [.integer("id", primaryKey: .autoincrement), .blob("data")])
            try other.insert(contentsOf: (0..<50).map { _ in ["data": .blob(.init(repeating: 1, count: 8192))] }, in: conn)
            _ = try RecordFixtures.seedPlayers(in: conn)
            try other.truncate(in: conn)
            let pages = try conn.fetchOne(Int.self, "PRAGMA page_count")
            #expect(try conn.fetchOne(Int.self, "PRAGMA freelist_count") ?? 0 > 0)
            try players.truncate(in: conn)
            #expect(try conn.fetchOne(Int.self, "PRAGMA page_count") == pages)
            #expect(try other.insert(["data": nil], in: conn) == 1)
            try players.insert(Player(id: nil, name: "x", score: 0), in: conn)
            #expect(try conn.fetchOne(Int.self, "SELECT seq FROM sqlite_sequence WHERE name = 'player'") == 1)
        }
    }

    @Test func truncateWithoutAutoincrementAndInsideARolledBackTransaction() throws {
        try withTemporaryConnection { conn, _ throws in
            let notes = Table<Row>("note", columns: [.integer("id", primaryKey: .plain), .text("body")])
            try notes.truncate(in: conn)
            try notes.insert(contentsOf: [["body": "a"], ["body": "b"]], in: conn)
            try conn.inTransaction {
                try notes.truncate(in: conn)
                #expect(try notes.count(in: conn) == 0)
                return .rollback
            }
            #expect(try notes.count(in: conn) == 2)
        }
    }
}
