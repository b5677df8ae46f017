import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

@Suite struct TableUpdateTests {
    private let players = RecordFixtures.players

    @Test func updatesARecordByItsPrimaryKey() throws {
        try withTemporaryConnection { conn, _ throws in
            var seeded = try RecordFixtures.seedPlayers(in: conn)
            seeded[1].score = 99
            seeded[1].name = "Bobby"
            #expect(try players.update(seeded[1], in: conn))
            #expect(try players.find(primaryKey: 2, in: conn) == seeded[1])
            #expect(try players.find(primaryKey: 1, in: conn) == seeded[0])
            #expect(try !players.update(Player(id: 99, name: "Ghost", score: 0), in: conn))
        }
    }

    @Test func nilPropertiesStoreTheDefaultOrNull() throws {
        try withTemporaryConnection { conn, _ throws in
            var ann = Player(id: nil, name: "Ann", score: 1, age: 30)
            try RecordFixtures.playersWithDefaultAge.insert(&ann, in: conn)
            ann.age = nil
            try RecordFixtures.playersWithDefaultAge.update(ann, in: conn)
            #expect(try players.find(primaryKey: ann.id, in: conn)?.age == 18)
            try players.update(ann, in: conn)
            #expect(try players.find(primaryKey: ann.id, in: conn)?.age == nil)
        }
    }

    @Test func columnsARecordDoesNotWriteKeepTheirValues() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            try RecordFixtures.rows.update(["id": 1, "score": 11], in: conn)
            #expect(try players.find(primaryKey: 1, in: conn) == Player(id: 1, name: "Ann", score: 11, age: 30))
            #expect(try !RecordFixtures.rows.update(["id": 1], in: conn))
        }
    }

    @Test func aRecordWithoutPrimaryKeyCannotBeUpdated() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let error = #expect(throws: DatabaseError.self) {
                try players.update(Player(id: nil, name: "Ann", score: 0), in: conn)
            }
            #expect(error?.kind == .missingPrimaryKey)
            #expect(error?.column == "id")
        }
    }

    @Test func updatesManyRecordsAtomically() throws {
        try withTemporaryConnection { conn, _ throws in
            var seeded = try RecordFixtures.seedPlayers(in: conn)
            seeded[0].score = 1
            seeded[1].score = 2
            #expect(try players.update(contentsOf: seeded[0...1], in: conn) == 2)
            #expect(try players.findAll(in: conn) == seeded)

            var clash = seeded
            clash[0].score = 50
            clash[1].name = "c'asa"
            let error = #expect(throws: DatabaseError.self) { try players.update(contentsOf: clash, in: conn) }
            #expect(error?.extendedResultCode == .constraintUnique)
            #expect(try players.findAll(in: conn) == seeded)
        }
    }

    @Test func updatesValuesWhereAFragmentHolds() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.update(["score": 1.5, "name": "c'asa 2"], where: "name = :name", ["name": "c'asa"], in: conn) == 1)
            #expect(try players.update(["age": 40], where: "age IS NULL AND score < ?", [5], in: conn) == 2)
            #expect(try players.update(["age": 41], where: "name = 'nobody'", in: conn) == 0)
            let found = try players.findAll(in: conn)
            #expect(found.map(\.name) == ["Ann", "Bob", "c'asa 2", "NULL"])
            #expect(found.map(\.age) == [30, 40, 3, 40])
            #expect(found.map(\.score) == [10, 3, 1.5, 0])
        }
    }

    @Test func settingNilStoresTheDefault() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try RecordFixtures.playersWithDefaultAge.update(["age": nil], forPrimaryKey: 1, in: conn))
            #expect(try players.update(["score": nil, "age": nil], forPrimaryKey: 3, in: conn))
            #expect(try players.findAll(in: conn).map(\.age) == [18, nil, nil, nil])
            #expect(try players.find(primaryKey: 3, in: conn)?.score == 0)
        }
    }

    @Test func updatesValuesByPrimaryKeys() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.update(["score": 5], forPrimaryKeys: [1, 3, 99], in: conn) == 2)
            #expect(try !players.update(["score": 5], forPrimaryKey: 99, in: conn))
            #expect(try players.findAll(in: conn).map(\.score) == [5, 3, 5, 0])
        }
    }

    @Test func emptyInputUpdatesNothing() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try players.update([:], where: "1", in: conn) == 0)
            #expect(try players.update([:], forPrimaryKeys: [1, 2], in: conn) == 0)
            #expect(try players.update(["score": 1], forPrimaryKeys: [Int](), in: conn) == 0)
            #expect(try players.update(contentsOf: [], in: conn) == 0)
            #expect(try players.count(where: "score = 1", in: conn) == 0)
        }
    }

    @Test func badAssignmentsAreErrors() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let unknown = #expect(throws: DatabaseError.self) { try players.update(["nope": 1], forPrimaryKey: 1, in: conn) }
            #expect(unknown?.kind == .columnNotFound)
            #expect(unknown?.column == "nope")
            let twice = #expect(throws: DatabaseError.self) {
                try players.update(["score": 1, "SCORE": 2], forPrimaryKey: 1, in: conn)
            }
            #expect(twice?.kind == .invalidArguments)
            let nan = #expect(throws: DatabaseError.self) { try players.update(["score": Double.nan], forPrimaryKey: 1, in: conn) }
            #expect(nan?.kind == .encoding)
            #expect(nan?.column == "score")
            let badArgument = #expect(throws: DatabaseError.self) {
                try players.update(["score": 1], where: "score = ?", [Double.nan], in: conn)
            }
            #expect(badArgument?.kind == .encoding)
            let reserved = #expect(throws: DatabaseError.self) {
                try players.update(["score": 1], where: "id = :persistance_value_0", ["persistance_value_0": 1], in: conn)
            }
            #expect(reserved?.kind == .invalidArguments)
            #expect(try players.count(where: "score = 1", in: conn) == 0)
        }
    }
}
