import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// A table that creates itself inside a transaction that then rolls back is gone, but the
/// statements its operations cached are not: the next operation must create it again before
/// it consumes any record, so nothing is lost or validated twice.
@Suite struct TableCreationRollbackTests {
    struct Refused: Error {}

    private let batch = [Player(id: nil, name: "Ann", score: 1), Player(id: nil, name: "Bob", score: 2)]

    /// A `player` table whose validation records the names it sees.
    private static func countingPlayers(_ seen: Guarded<[String]>) -> Table<Player> {
        Table<Player>(
            "player", primaryKey: "id", columns: RecordFixtures.players.columns,
            validate: { player, _ in seen.withLock { $0.append(player.name) } })
    }

    private static func connection(_ directory: TemporaryDirectory) throws -> Connection {
        try Connection(path: directory.path("players.sqlite"))
    }

    @Test func aRolledBackCreationIsRedoneBeforeASinglePassInsert() throws {
        let directory = try TemporaryDirectory()
        let conn = try Self.connection(directory)
        defer { try? conn.close() }
        let seen = Guarded<[String]>([])
        let players = Self.countingPlayers(seen)
        #expect(throws: Refused.self) {
            try conn.transaction {
                try players.insert(Player(id: nil, name: "Zed", score: 0), in: conn)
                throw Refused()
            }
        }
        #expect(try !players.exists(in: conn))
        seen.withLock { $0 = [] }
        try players.insert(contentsOf: RecordFixtures.SinglePassSequence(batch), in: conn)
        #expect(try players.findAll(in: conn).map(\.name) == ["Ann", "Bob"])
        #expect(seen.withLock { $0 } == ["Ann", "Bob"])
    }

    @Test func aSavepointRollbackInsideTheCreatingTransactionIsSeenToo() throws {
        let directory = try TemporaryDirectory()
        let conn = try Self.connection(directory)
        defer { try? conn.close() }
        let seen = Guarded<[String]>([])
        let players = Self.countingPlayers(seen)
        let refused = try conn.transaction {
            var refused = false
            do {
                try conn.savepoint {
                    try players.insert(Player(id: nil, name: "Zed", score: 0), in: conn)
                    throw Refused()
                }
            } catch is Refused {
                refused = true
            }
            seen.withLock { $0 = [] }
            _ = try players.upsertAll(
                RecordFixtures.SinglePassSequence(batch), uniqueKey: "name", nilValues: .keepStored, in: conn)
            return refused
        }
        #expect(refused)
        #expect(try players.findAll(in: conn).map(\.name) == ["Ann", "Bob"])
        #expect(seen.withLock { $0 } == ["Ann", "Bob"])
    }

    @Test func aCommittedCreationIsCheckedOnceMoreThenNoLonger() throws {
        let directory = try TemporaryDirectory()
        let conn = try Self.connection(directory)
        defer { try? conn.close() }
        let players = Self.countingPlayers(Guarded([]))
        try conn.transaction { try players.insert(Player(id: nil, name: "Ann", score: 1), in: conn) }
        #expect(players.schema.uncommittedCreations.needsCheck(on: conn))
        #expect(!players.schema.uncommittedCreations.needsCheck(on: conn))
        try conn.transaction { try players.insert(Player(id: nil, name: "Bob", score: 2), in: conn) }
        #expect(!players.schema.uncommittedCreations.needsCheck(on: conn))
        #expect(try players.count(in: conn) == 2)
    }
}
