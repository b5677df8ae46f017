import Foundation
import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

@Suite struct TableValidationTests {
    /// The writes a validation hook was asked about.
    private final class WriteLog: @unchecked Sendable {
        private let lock = NSLock()
        private var writes = [TableWrite]()

        func append(_ write: TableWrite) { lock.withLock { writes.append(write) } }
        var all: [TableWrite] { lock.withLock { writes } }
    }

    /// Rejects negative scores and records every write it is asked about.
    private static func validatedPlayers(log: WriteLog) -> Table<Player> {
        Table<Player>(
            "player", columns: RecordFixtures.players.columns,
            validate: { player, write in
                log.append(write)
                if player.score < 0 { throw DatabaseError.validation("score must not be negative", column: "score") }
            })
    }

    @Test func rejectsInvalidInsertsAtomically() throws {
        try withTemporaryConnection { conn, _ throws in
            let log = WriteLog()
            let players = Self.validatedPlayers(log: log)
            try players.insert(Player(id: nil, name: "Ann", score: 1), in: conn)
            let error = #expect(throws: DatabaseError.self) {
                try players.insert(
                    contentsOf: [Player(id: nil, name: "Bob", score: 2), Player(id: nil, name: "Cy", score: -1)], in: conn)
            }
            #expect(error?.kind == .validation)
            #expect(error?.column == "score")
            #expect(try players.findAll(in: conn).map(\.name) == ["Ann"])
            #expect(log.all == [.insert, .insert, .insert])
        }
    }

    @Test func rejectsInvalidUpdatesAndUpserts() throws {
        try withTemporaryConnection { conn, _ throws in
            let log = WriteLog()
            let players = Self.validatedPlayers(log: log)
            var ann = Player(id: nil, name: "Ann", score: 1)
            try players.insert(&ann, in: conn)
            ann.score = -5
            #expect(throws: DatabaseError.self) { try players.update(ann, in: conn) }
            #expect(throws: DatabaseError.self) { try players.upsert(ann, uniqueKey: "name", in: conn) }
            #expect(try players.find(primaryKey: ann.id, in: conn)?.score == 1)
            #expect(log.all == [.insert, .update, .upsert])
        }
    }

    @Test func hooksMayThrowTheirOwnErrors() throws {
        struct Rejected: Error {}
        try withTemporaryConnection { conn, _ throws in
            let players = Table<Player>("player", columns: RecordFixtures.players.columns, validate: { _, _ in throw Rejected() })
            #expect(throws: Rejected.self) { try players.insert(Player(id: nil, name: "Ann", score: 1), in: conn) }
            #expect(try players.count(in: conn) == 0)
        }
    }
}
