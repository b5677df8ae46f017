import Foundation
import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player
private typealias Sample = RecordFixtures.Sample

@Suite struct TableInsertTests {
    @Test func insertAssignsTheNewID() throws {
        try withTemporaryConnection { conn, _ throws in
            var ann = Player(id: nil, name: "Ann", score: 10)
            #expect(try RecordFixtures.players.insert(&ann, in: conn) == 1)
            #expect(ann.id == 1)
            let bob = Player(id: nil, name: "Bob", score: 3)
            #expect(try RecordFixtures.players.insert(bob, in: conn) == 2)
            var chosen = Player(id: 40, name: "Cy", score: 1)
            #expect(try RecordFixtures.players.insert(&chosen, in: conn) == 40)
            #expect(chosen.id == 40)
            let byName = try RecordFixtures.players.findAll(in: conn).sorted { $0.name < $1.name }
            #expect(byName == [ann, Player(id: 2, name: "Bob", score: 3), chosen])
        }
    }

    /// An array's records are read where they lie, any other sequence's copied out one by
    /// one: both write every record in order, validated, and a rejected one writes none.
    private func writesEveryRecord(of sequence: ([Player]) -> some Sequence<Player>) throws {
        let validated = Guarded<[String]>([])
        let players = Table<Player>(
            "player", primaryKey: "id", columns: RecordFixtures.players.columns,
            validate: { player, _ in
                validated.withLock { $0.append(player.name) }
                if player.name == "reject" { throw DatabaseError(kind: .invalidArguments, message: "rejected") }
            })
        func records(_ names: String...) -> [Player] {
            names.enumerated().map { Player(id: nil, name: $1, score: Double($0)) }
        }
        try withTemporaryConnection { conn, _ throws in
            #expect(try players.insert(contentsOf: sequence(records("a", "b")), in: conn) == [1, 2])
            let upserted = sequence([Player(id: 2, name: "b2", score: 0), Player(id: 3, name: "c", score: 0)])
            #expect(try players.upsert(contentsOf: upserted, uniqueKey: "id", in: conn) == [2, 3])
            #expect(throws: DatabaseError.self) {
                try players.insert(contentsOf: sequence(records("d", "reject")), in: conn)
            }
            #expect(try players.findAll(in: conn).map(\.name).sorted() == ["a", "b2", "c"])
            let names = validated.withLock { $0 }
            #expect(names == ["a", "b", "b2", "c", "d", "reject"])
        }
    }

    @Test func writesEveryRecordOfAnArray() throws {
        try writesEveryRecord { $0 }
    }

    @Test func writesEveryRecordOfAnotherSequence() throws {
        try writesEveryRecord { $0.lazy.map { $0 } }
    }

    static let specialValues: [RecordFixtures.Sample] = [
        Sample(text: "c'asa", integer: 0, real: 0),
        Sample(text: "NULL", integer: .max, real: .pi),
        Sample(text: "", integer: .min, real: -1e-300),
        Sample(text: "\"; DROP TABLE sample; --", integer: -1, real: .greatestFiniteMagnitude),
        Sample(text: "ünïcødé ✓ 🎲", integer: 1, real: -.infinity),
        Sample(blob: Data()),
        Sample(blob: Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 8) })),
        Sample(),
    ]

    @Test(arguments: specialValues)
    func roundTripsSpecialValues(_ sample: RecordFixtures.Sample) throws {
        try withTemporaryConnection { conn, _ throws in
            var inserted = sample
            try RecordFixtures.samples.insert(&inserted, in: conn)
            #expect(try RecordFixtures.samples.findAll(in: conn) == [inserted])
            let types = try #require(try conn.fetchOne(
                "SELECT typeof(text) AS text, typeof(integer) AS integer, typeof(real) AS real, typeof(blob) AS blob FROM sample"))
            #expect(types["text"] == (sample.text == nil ? "null" : "text"))
            #expect(types["integer"] == (sample.integer == nil ? "null" : "integer"))
            #expect(types["real"] == (sample.real == nil ? "null" : "real"))
            #expect(types["blob"] == (sample.blob == nil ? "null" : "blob"))
        }
    }

    /// Text and blobs are bound from the insert's own memory, which is freed afterwards: the
    /// cached statement must be left with no parameter pointing into it. Run again unbound,
    /// it inserts NULLs, which the NOT NULL name refuses.
    @Test func insertLeavesItsCachedStatementUnbound() throws {
        try withTemporaryConnection { conn, _ throws in
            let players = RecordFixtures.players
            let name = String(repeating: "long name ", count: 20)
            try players.insert(contentsOf: [Player(id: nil, name: name, score: 1, age: 2)], in: conn)
            let statement = try conn.cachedStatement(players.schema.insertSQL)
            let error = #expect(throws: DatabaseError.self) { try statement.step() }
            #expect(error?.extendedResultCode == .constraintNotNull)
            #expect(try players.findAll(in: conn).map(\.name) == [name])
        }
    }

    @Test func nilPropertiesGetTheColumnDefault() throws {
        try withTemporaryConnection { conn, _ throws in
            let table = RecordFixtures.playersWithDefaultAge
            try table.insert(Player(id: nil, name: "Ann", score: 1, age: nil), in: conn)
            try table.insert(Player(id: nil, name: "Bob", score: 1, age: 7), in: conn)
            #expect(try table.findAll(in: conn).map(\.age) == [18, 7])

            let rows = RecordFixtures.rows
            try rows.insert(["name": "Cy", "score": nil], in: conn)
            #expect(try rows.findAll(where: "name", equals: "Cy", in: conn).first?["score"] == 0.0)
        }
    }

    @Test func batchInsertAssignsIDsInOrder() throws {
        try withTemporaryConnection { conn, _ throws in
            var batch = (1...5).map { Player(id: nil, name: "p\($0)", score: Double($0)) }
            let ids = try RecordFixtures.players.insert(contentsOf: &batch, in: conn)
            #expect(ids == [1, 2, 3, 4, 5])
            #expect(batch.map(\.id) == [1, 2, 3, 4, 5])
            #expect(try RecordFixtures.players.insert(contentsOf: [Player(id: nil, name: "q", score: 0)], in: conn) == [6])
            #expect(try RecordFixtures.players.insert(contentsOf: [], in: conn) == [])
            #expect(try RecordFixtures.players.count(in: conn) == 6)
        }
    }

    @Test func uniqueViolationInABatchLeavesTheTableAsItWas() throws {
        try withTemporaryConnection { conn, _ throws in
            let players = RecordFixtures.players
            try players.insert(contentsOf: [Player(id: nil, name: "Ann", score: 1), Player(id: nil, name: "Bob", score: 2)], in: conn)
            let before = try players.findAll(in: conn)
            var batch = [Player(id: nil, name: "Cy", score: 3), Player(id: nil, name: "Ann", score: 4), Player(id: nil, name: "Di", score: 5)]
            let original = batch
            let error = #expect(throws: DatabaseError.self) { try players.insert(contentsOf: &batch, in: conn) }
            #expect(error?.extendedResultCode == .constraintUnique)
            #expect(error?.sql?.hasPrefix("INSERT INTO \"player\"") == true)
            #expect(batch == original)
            #expect(try players.findAll(in: conn) == before)
            #expect(!conn.isInTransaction)
        }
    }

    @Test func batchInsideAUserTransactionDoesNotCommitIt() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.inTransaction {
                try RecordFixtures.players.insert(contentsOf: [Player(id: nil, name: "Ann", score: 1)], in: conn)
                #expect(conn.isInTransaction)
                return .rollback
            }
            #expect(try RecordFixtures.players.count(in: conn) == 0)
        }
    }

    @Test func insertsOneValueForAColumn() throws {
        try withTemporaryConnection { conn, _ throws in
            let id = try RecordFixtures.rows.insertValue("casa", forColumn: "name", in: conn)
            #expect(try RecordFixtures.rows.find(primaryKey: id, in: conn) == ["id": 1, "name": "casa", "score": 0.0, "age": nil])
            let error = #expect(throws: DatabaseError.self) {
                try RecordFixtures.rows.insertValue(1, forColumn: "missing", in: conn)
            }
            #expect(error?.kind == .columnNotFound)
            #expect(error?.column == "missing")
        }
    }

    @Test func finalClassRecords() throws {
        try withTemporaryConnection { conn, _ throws in
            let table = RecordFixtures.playerObjects
            var ann = RecordFixtures.PlayerObject(name: "Ann", score: 1)
            #expect(try table.insert(&ann, in: conn) == 1)
            #expect(ann.id == 1)
            ann.score = 2
            #expect(try table.update(ann, in: conn))
            let found = try #require(try table.find(primaryKey: 1, in: conn))
            #expect(found.name == "Ann" && found.score == 2 && found.id == 1)
        }
    }

    @Test func rowRecords() throws {
        try withTemporaryConnection { conn, _ throws in
            var row: Row = ["name": "Ann", "score": 1.5]
            try RecordFixtures.rows.insert(&row, in: conn)
            #expect(row == ["name": "Ann", "score": 1.5, "id": 1])
            #expect(try RecordFixtures.rows.findAll(in: conn) == [["id": 1, "name": "Ann", "score": 1.5, "age": nil]])
            let error = #expect(throws: DatabaseError.self) {
                try RecordFixtures.rows.insert(["name": "Bob", "nickname": "B"], in: conn)
            }
            #expect(error?.kind == .columnNotFound)
        }
    }

    @Test func sameRecordTypeInTwoTables() throws {
        try withTemporaryConnection { conn, _ throws in
            let retired = Table<Player>("retired player", columns: RecordFixtures.players.columns)
            var ann = Player(id: nil, name: "Ann", score: 1)
            try RecordFixtures.players.insert(&ann, in: conn)
            try retired.insert(ann, in: conn)
            try retired.insert(Player(id: nil, name: "Old", score: 9), in: conn)
            #expect(try RecordFixtures.players.findAll(in: conn) == [ann])
            #expect(try retired.findAll(in: conn) == [ann, Player(id: 2, name: "Old", score: 9)])
        }
    }

    @Test func handWrittenRecords() throws {
        try withTemporaryConnection { conn, _ throws in
            var fast = [
                RecordFixtures.FastPlayer(id: nil, name: "Ann", score: 1, age: nil),
                RecordFixtures.FastPlayer(id: nil, name: "Bob", score: 2, age: 30),
            ]
            try RecordFixtures.fastPlayers.insert(contentsOf: &fast, in: conn)
            #expect(fast.map(\.id) == [1, 2])
            #expect(try RecordFixtures.fastPlayers.findAll(in: conn) == fast)
            #expect(try RecordFixtures.players.findAll(in: conn).map(\.age) == [nil, 30])
            let error = #expect(throws: DatabaseError.self) {
                try RecordFixtures.fastPlayers.findAll(sql: "SELECT id, name, score FROM player", in: conn)
            }
            #expect(error?.kind == .columnNotFound)
            #expect(error?.column == "age")
        }
    }

    @Test func encodingOrderDoesNotMatter() throws {
        struct Reversed: Record, Codable, Equatable {
            var age: Int?
            var score: Double
            var name: String
            var id: Int64?
        }
        try withTemporaryConnection { conn, _ throws in
            let table = Table<Reversed>("player", columns: RecordFixtures.players.columns)
            var records = [Reversed(age: 1, score: 2, name: "a", id: nil), Reversed(age: nil, score: 3, name: "b", id: nil)]
            try table.insert(contentsOf: &records, in: conn)
            #expect(try table.findAll(in: conn) == records)
        }
    }
}
