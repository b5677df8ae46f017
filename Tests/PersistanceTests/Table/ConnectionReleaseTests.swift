import Testing

@testable import Persistance

@Suite struct ConnectionReleaseTests {
    /// Tables leave statements in the connection's cache; releasing the connection without
    /// `close()` must finalize them without touching the connection being deinitialized.
    @Test func connectionReleasedWithoutCloseAfterTableUse() throws {
        let directory = try TemporaryDirectory()
        do {
            let conn = try Connection(path: directory.path("db.sqlite"))
            try RecordFixtures.players.insert(RecordFixtures.Player(id: nil, name: "Ann", score: 1), in: conn)
            #expect(conn.cachedStatementCount > 0)
        }
        let conn = try Connection(path: directory.path("db.sqlite"))
        #expect(try RecordFixtures.players.count(in: conn) == 1)
        try conn.close()
    }
}
