import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

/// An operation that finds its table missing creates it and starts over; no record of a
/// single-pass sequence may be lost or validated twice on the way.
@Suite struct TableFirstUseTests {
    private let batch = [Player(id: nil, name: "Ann", score: 1), Player(id: nil, name: "Bob", score: 2)]

    @Test func insertFromASinglePassSequence() throws {
        try withTemporaryConnection { conn, _ throws in
            try RecordFixtures.players.insert(contentsOf: RecordFixtures.SinglePassSequence(batch), in: conn)
            #expect(try RecordFixtures.players.findAll(in: conn).map(\.name) == ["Ann", "Bob"])
        }
    }

    @Test(arguments: TableUpsertTests.strategies)
    func upsertFromASinglePassSequence(_ strategy: UpsertStrategy) throws {
        try withTemporaryConnection { conn, _ throws in
            let ids = try RecordFixtures.players.upsertAll(
                RecordFixtures.SinglePassSequence(batch), uniqueKey: "name", nilValues: .keepStored, strategy: strategy, in: conn)
            #expect(ids.rowIDs == [1, 2])
            #expect(try RecordFixtures.players.findAll(in: conn).map(\.name) == ["Ann", "Bob"])
        }
    }

    @Test func updateFromASinglePassSequence() throws {
        try withTemporaryConnection { conn, _ throws in
            let updated = try RecordFixtures.players.update(
                contentsOf: RecordFixtures.SinglePassSequence([Player(id: 1, name: "Ann", score: 1)]), in: conn)
            #expect(updated == 0)
            #expect(try RecordFixtures.players.exists(in: conn))
        }
    }
}
