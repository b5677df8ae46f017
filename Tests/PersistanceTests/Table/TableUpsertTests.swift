import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// Every test runs with each strategy the linked engine has: the native
/// `ON CONFLICT … RETURNING` (SQLite 3.35+) and the look-up-then-write fallback (all).
@Suite struct TableUpsertTests {
    static let strategies: [UpsertStrategy] =
        UpsertStrategy.preferred == .native ? [.native, .lookUpThenWrite] : [.lookUpThenWrite]

    private let players = RecordFixtures.players

    @discardableResult
    private func upsert(
        _ records: [Player], _ strategy: UpsertStrategy, nilValues: UpsertNilValues = .keepStored,
        table: Table<Player> = RecordFixtures.players, uniqueKey: String = "name", in conn: Connection
    ) throws -> [Int64] {
        try table.upsertAll(records, uniqueKey: uniqueKey, nilValues: nilValues, strategy: strategy, in: conn).rowIDs
    }

    @Test(arguments: strategies)
    func insertsANewRecordAndReturnsItsKey(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try upsert([Player(id: nil, name: "Eve", score: 1)], strategy, in: conn) == [5])
            #expect(try players.find(primaryKey: 5, in: conn) == Player(id: 5, name: "Eve", score: 1))
            #expect(try players.count(in: conn) == 5)
        }
    }

    @Test(arguments: strategies)
    func updatesTheRowWithTheSameUniqueKey(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try upsert([Player(id: 77, name: "c'asa", score: 8, age: 4)], strategy, in: conn) == [3])
            #expect(try players.find(primaryKey: 3, in: conn) == Player(id: 3, name: "c'asa", score: 8, age: 4))
            #expect(try players.count(in: conn) == 4)
        }
    }

    @Test(arguments: strategies)
    func nilValuesKeepStoredValues(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            try upsert([Player(id: nil, name: "Ann", score: 11, age: nil)], strategy, in: conn)
            #expect(try players.find(primaryKey: 1, in: conn) == Player(id: 1, name: "Ann", score: 11, age: 30))
            let rows = Table<Row>("player", columns: players.columns)
            _ = try rows.upsertAll([["name": "Ann"]], uniqueKey: "name", nilValues: .keepStored, strategy: strategy, in: conn)
            #expect(try players.find(primaryKey: 1, in: conn) == Player(id: 1, name: "Ann", score: 11, age: 30))
        }
    }

    @Test(arguments: strategies)
    func nilValuesOverwriteWithTheDefaultOrNull(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            try upsert([Player(id: nil, name: "Ann", score: 11, age: nil)], strategy, nilValues: .overwrite, in: conn)
            #expect(try players.find(primaryKey: 1, in: conn)?.age == nil)
            try upsert(
                [Player(id: nil, name: "c'asa", score: 11, age: nil)], strategy, nilValues: .overwrite,
                table: RecordFixtures.playersWithDefaultAge, in: conn)
            #expect(try players.find(primaryKey: 3, in: conn)?.age == 18)
        }
    }

    @Test(arguments: strategies)
    func upsertsByPrimaryKeyOrAUniqueIndex(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            #expect(try upsert([Player(id: 2, name: "Robert", score: 4)], strategy, uniqueKey: "id", in: conn) == [2])
            #expect(try upsert([Player(id: nil, name: "New", score: 4)], strategy, uniqueKey: "id", in: conn) == [5])
            #expect(try players.find(primaryKey: 2, in: conn) == Player(id: 2, name: "Robert", score: 4))

            let byIndex = Table<Player>(
                "indexed", columns: [.integer("id", primaryKey: .plain), .text("name"), .real("score"), .integer("age")],
                indexes: [.index("indexed_name", on: ["name"], unique: true)])
            #expect(try upsert([Player(id: nil, name: "a", score: 1)], strategy, table: byIndex, in: conn) == [1])
            #expect(try upsert([Player(id: nil, name: "a", score: 2)], strategy, table: byIndex, in: conn) == [1])
            #expect(try byIndex.findAll(in: conn) == [Player(id: 1, name: "a", score: 2)])
        }
    }

    @Test(arguments: strategies)
    func upsertInsideARolledBackTransaction(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            let before = try RecordFixtures.seedPlayers(in: conn)
            try conn.inTransaction {
                try upsert([Player(id: nil, name: "Ann", score: 1), Player(id: nil, name: "Zed", score: 2)], strategy, in: conn)
                #expect(conn.isInTransaction)
                #expect(try players.count(in: conn) == 5)
                return .rollback
            }
            #expect(try players.findAll(in: conn) == before)
        }
    }

    @Test(arguments: strategies)
    func aFailingBatchLeavesTheTableAsItWas(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            let before = try RecordFixtures.seedPlayers(in: conn)
            try conn.execute("""
                CREATE TRIGGER no_clash BEFORE INSERT ON player WHEN NEW.name = 'Clash'
                BEGIN SELECT RAISE(ABORT, 'no clash'); END
                """)
            let error = #expect(throws: DatabaseError.self) {
                try upsert(
                    [Player(id: nil, name: "Ann", score: 1), Player(id: nil, name: "Clash", score: 2)], strategy, in: conn)
            }
            #expect(error?.resultCode == .constraint)
            #expect(try players.findAll(in: conn) == before)
        }
    }

    @Test(arguments: strategies)
    func upsertOnTheIntegerPrimaryKeyUpdatesOrInsertsByID(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let ids = try upsert(
                [Player(id: 2, name: "Two", score: 9), Player(id: 40, name: "Forty", score: 4),
                 Player(id: nil, name: "New", score: 5)],
                strategy, uniqueKey: "id", in: conn)
            #expect(ids == [2, 40, 41])
            #expect(try players.find(primaryKey: 2, in: conn) == Player(id: 2, name: "Two", score: 9))
            #expect(try players.find(primaryKey: 41, in: conn)?.name == "New")
            #expect(try players.count(in: conn) == 6)
        }
    }

    @Test(arguments: strategies)
    func upsertOnTheRowIDWithATextKeyReturnsTheRowSQLiteWrote(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            let rows = RecordFixtures.rows
            let updated = Row([("id", .text("3")), ("name", "Three"), ("score", 3.5)])
            let inserted = Row([("id", .text("70")), ("name", "Seventy"), ("score", 7.0)])
            let ids = try rows.upsertAll(
                [updated, inserted], uniqueKey: "id", nilValues: .keepStored, strategy: strategy, in: conn
            ).rowIDs
            #expect(ids == [3, 70])
            #expect(try players.find(primaryKey: 3, in: conn)?.name == "Three")
            #expect(try players.find(primaryKey: 70, in: conn)?.name == "Seventy")
            #expect(throws: DatabaseError.self) {
                try rows.upsertAll(
                    [Row([("id", .text("x")), ("name", "Bad")])], uniqueKey: "id", nilValues: .keepStored,
                    strategy: strategy, in: conn)
            }
            #expect(try players.count(in: conn) == 5)
        }
    }

    @Test func inoutUpsertAssignsTheKey() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try RecordFixtures.seedPlayers(in: conn)
            var existing = Player(id: nil, name: "Bob", score: 4)
            #expect(try players.upsert(&existing, uniqueKey: "name", in: conn) == 2)
            #expect(existing.id == 2)
            // An AUTOINCREMENT table may skip ids after upserts that updated (natively, SQLite
            // draws an id before it finds the conflict), so new ids are only known to be new.
            var new = Player(id: nil, name: "Eve", score: 4)
            let newID = try players.upsert(&new, uniqueKey: "name", in: conn)
            #expect(new.id == newID && newID > 4)
            #expect(try players.find(primaryKey: newID, in: conn) == new)
            var batch = [Player(id: nil, name: "Ann", score: 0), Player(id: nil, name: "Fay", score: 0)]
            let batchIDs = try players.upsert(contentsOf: &batch, uniqueKey: "name", in: conn)
            #expect(batchIDs.first == 1 && batchIDs[1] > newID)
            #expect(batch.map(\.id) == batchIDs)
            #expect(try players.upsert(contentsOf: [Player](), uniqueKey: "name", in: conn) == [])
        }
    }

    @Test func keyMustBeUnique() throws {
        try withTemporaryConnection { conn, _ throws in
            for key in ["score", "missing"] {
                let error = #expect(throws: DatabaseError.self) {
                    try players.upsert(Player(id: nil, name: "Ann", score: 1), uniqueKey: key, in: conn)
                }
                #expect(error?.kind == .invalidArguments)
                #expect(error?.column == key)
            }
            #expect(try !players.exists(in: conn))
        }
    }
}
