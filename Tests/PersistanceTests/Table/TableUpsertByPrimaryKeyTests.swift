import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// CTPersistance's upsert: by the unique key, else by the primary key, else insert — with
/// each strategy the linked engine has (native `ON CONFLICT` and the look-up fallback).
@Suite struct TableUpsertByPrimaryKeyTests {
    private let players = RecordFixtures.players

    @discardableResult
    private func upsert(
        _ record: Player, _ strategy: UpsertStrategy, nilValues: UpsertNilValues = .keepStored, in conn: Connection
    ) throws -> Int64 {
        try players.upsertAll([record], uniqueKey: "name", nilValues: nilValues, strategy: strategy, in: conn).rowIDs[0]
    }

    @Test(arguments: TableUpsertTests.strategies)
    func aMissedUniqueKeyUpdatesTheRowWithThePrimaryKey(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try upsert(Player(id: 2, name: "Bobby", score: 5, age: 40), strategy, in: conn) == 2)
            #expect(try players.find(primaryKey: 2, in: conn) == Player(id: 2, name: "Bobby", score: 5, age: 40))
            #expect(try players.count(in: conn) == 4)
        }
    }

    @Test(arguments: TableUpsertTests.strategies)
    func theUniqueKeyWinsOverThePrimaryKey(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            // Ann is row 1; the record says id 2 (Bob's): the row with the unique key is updated.
            #expect(try upsert(Player(id: 2, name: "Ann", score: 99), strategy, in: conn) == 1)
            #expect(try players.find(primaryKey: 1, in: conn) == Player(id: 1, name: "Ann", score: 99, age: 30))
            #expect(try players.find(primaryKey: 2, in: conn) == Player(id: 2, name: "Bob", score: 3))
        }
    }

    @Test(arguments: TableUpsertTests.strategies)
    func nilValuesFollowTheChoiceOnAnUpdateByPrimaryKey(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            try upsert(Player(id: 1, name: "Annie", score: 1, age: nil), strategy, in: conn)
            #expect(try players.find(primaryKey: 1, in: conn) == Player(id: 1, name: "Annie", score: 1, age: 30))
            try upsert(Player(id: 1, name: "Anna", score: 2, age: nil), strategy, nilValues: .overwrite, in: conn)
            #expect(try players.find(primaryKey: 1, in: conn) == Player(id: 1, name: "Anna", score: 2, age: nil))
        }
    }

    @Test(arguments: TableUpsertTests.strategies)
    func neitherKeyFoundInserts(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try upsert(Player(id: 40, name: "Zed", score: 1), strategy, in: conn) == 40)
            #expect(try upsert(Player(id: nil, name: "Yan", score: 1), strategy, in: conn) == 41)
            #expect(try players.count(in: conn) == 6)
        }
    }

    @Test(arguments: TableUpsertTests.strategies)
    func anUpdateByPrimaryKeyLeavesTheOtherRowsAlone(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            // The unique key is free here, so this is an update by primary key; it breaks nothing.
            try upsert(Player(id: 3, name: "Cass", score: 1), strategy, in: conn)
            #expect(try players.find(primaryKey: 3, in: conn)?.name == "Cass")
            #expect(try players.count(in: conn) == 4)
        }
    }
}

/// A table that opts in to ignoring record properties without a column (CTPersistance
/// stores a record with more properties than its table has columns); strict by default.
@Suite struct TableUnknownPropertiesTests {
    struct WideRecord: Record, Codable, Equatable {
        var id: Int64?
        var name: String
        var note: String
        var cached: [Int]
    }

    struct NarrowRecord: Record, Codable, Equatable {
        var id: Int64?
        var name: String
    }

    static let columns: [ColumnDefinition] = [.integer("id", primaryKey: .autoincrement), .text("name", unique: true)]

    @Test func propertiesWithoutAColumnAreAnErrorByDefault() throws {
        try withTemporaryConnection { conn, _ throws in
            let strict = Table<WideRecord>("wide", columns: Self.columns)
            #expect(!strict.ignoresUnknownProperties)
            let error = expectThrows(.columnNotFound) {
                try strict.insert(WideRecord(id: nil, name: "a", note: "n", cached: [1]), in: conn)
            }
            #expect(error?.column == "note")
            #expect(try strict.count(in: conn) == 0)
        }
    }

    @Test(arguments: TableUpsertTests.strategies)
    func aTableCanIgnorePropertiesWithoutAColumn(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            let wide = Table<WideRecord>("wide", columns: Self.columns, ignoresUnknownProperties: true)
            #expect(wide.ignoresUnknownProperties)
            var first = WideRecord(id: nil, name: "a", note: "dropped", cached: [1, 2])
            try wide.insert(&first, in: conn)
            try wide.insert(contentsOf: [WideRecord(id: nil, name: "b", note: "x", cached: [])], in: conn)
            let upserted = WideRecord(id: nil, name: "a", note: "y", cached: [3])
            _ = try wide.upsertAll([upserted], uniqueKey: "name", nilValues: .keepStored, strategy: strategy, in: conn)
            first.name = "c"
            #expect(try wide.update(first, in: conn))
            let narrow = Table<NarrowRecord>("wide", columns: Self.columns)
            #expect(try narrow.findAll(in: conn) == [NarrowRecord(id: 1, name: "c"), NarrowRecord(id: 2, name: "b")])
        }
    }
}
