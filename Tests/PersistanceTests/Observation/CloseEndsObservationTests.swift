import Foundation
import Testing

@testable import Persistance

/// Closing a database ends its change streams and value observations: a server handler
/// awaiting one returns, so graceful shutdown does not wait forever.
@Suite("Closing ends observations")
struct CloseEndsObservationTests {
    @Test("a change stream ends when the database closes, on a file and in memory", arguments: [false, true])
    func changeStreamEnds(inMemory: Bool) async throws {
        let directory = try TemporaryDirectory()
        let path = inMemory ? ":memory:" : directory.path("close.sqlite")
        let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
        try await db.write { conn in try conn.execute("CREATE TABLE t(x)") }
        let collector = Collector(db.changes(in: ["t"]))
        try await db.write { conn in try conn.execute("INSERT INTO t VALUES (1)") }
        try await collector.waitFor(1)
        #expect(!collector.isFinished)
        try await db.close()
        try await eventually(within: 5) { collector.isFinished }
        #expect(collector.elements.count == 1)
    }

    @Test("a value observation waiting for the next commit finishes normally when the database closes")
    func valueObservationEnds() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.observe { conn in try fixture.playerCount(conn) })
        try await collector.waitFor(1)
        try await fixture.db.close()
        try await eventually(within: 5) { collector.isFinished }
        #expect(collector.failure == nil)
        #expect(collector.elements == [0])
    }

    @Test("observing a closed database ends at once")
    func observingAfterCloseEnds() async throws {
        let fixture = try await ObservedDatabase()
        try await fixture.db.close()
        let changes = Collector(fixture.db.changes())
        let values = Collector(fixture.db.observe { conn in try fixture.playerCount(conn) })
        try await eventually(within: 5) { changes.isFinished && values.isFinished }
        #expect(changes.elements.isEmpty)
        #expect(values.elements.isEmpty)
        #expect(values.failure == nil)
    }
}
