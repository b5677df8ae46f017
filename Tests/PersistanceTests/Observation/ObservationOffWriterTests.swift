import Foundation
import Testing

@testable import Persistance

/// Value observations fetch on a reader, concurrently with the writes, at a snapshot that
/// sees exactly the announced commits.
@Suite("Observation off the writer")
struct ObservationOffWriterTests {
    @Test("while commits stream in, no fetch sees a commit not yet announced, and no commit is fetched twice")
    func fetchesSeeOnlyAnnouncedCommits() async throws {
        let fixture = try await ObservedDatabase()
        // Counts announced commits: subscribers are told before the commit counts as settled.
        let announced = Guarded(0)
        let subscription = fixture.db.changeTracker.subscribe(ChangeTracker.Subscriber(
            receive: { _ in announced.withLock { $0 += 1 } }, finish: {}))
        defer { subscription.cancel() }
        await subscription.isRecording.value
        // What every fetch saw: the players in its snapshot, and the commits announced by the
        // time it ran (the snapshot was taken before, so it may not see more).
        let fetched = Guarded<[(players: Int, announced: Int)]>([])
        let collector = Collector(fixture.db.observe { conn in
            let players = try fixture.playerCount(conn)
            fetched.withLock { $0.append((players, announced.withLock { $0 })) }
            return players
        })
        try await collector.waitFor(1)
        let writes = 300
        for index in 1...writes {
            try await fixture.insertPlayer("player \(index)")
        }
        try await collector.waitUntil { $0 == writes }
        await collector.cancel()
        let fetches = fetched.withLock { $0 }
        let unannounced = fetches.filter { $0.players > $0.announced }
        #expect(unannounced.isEmpty, "fetches saw commits not yet announced: \(unannounced)")
        // A commit fetched twice would give two fetches the same count.
        let counts = fetches.map(\.players)
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
    }

    @Test("a write completes while a fetch is running: fetches do not hold the writer")
    func writesDoNotWaitForFetches() async throws {
        let fixture = try await ObservedDatabase()
        let fetchIsRunning = OneShot<Void>()
        let writeDone = Guarded(false)
        let sawWriteDuringFetch = Guarded<Bool?>(nil)
        let collector = Collector(fixture.db.observe { conn -> Int in
            let count = try fixture.playerCount(conn)
            guard count == 1 else { return count }
            // The second fetch waits (at most 20 s) for a write submitted meanwhile.
            fetchIsRunning.fulfill(())
            let deadline = ContinuousClock.now + .seconds(20)
            while !writeDone.withLock({ $0 }), ContinuousClock.now < deadline {
                usleep(1_000)
            }
            sawWriteDuringFetch.withLock { $0 = writeDone.withLock { $0 } }
            return count
        })
        try await collector.waitFor(1)
        try await fixture.insertPlayer("Ann")
        await fetchIsRunning.value
        try await fixture.insertItem("written while the fetch runs")
        writeDone.withLock { $0 = true }
        try await collector.waitFor(2)
        #expect(sawWriteDuringFetch.withLock { $0 } == true)
        // The fetch's snapshot predates the item: a commit to another table causes nothing.
        #expect(collector.elements == [0, 1])
        await collector.cancel()
    }

    @Test("a commit that lands while a fetch runs is seen by the next fetch, even in a table the fetch just started reading")
    func commitDuringFetchTouchesTheNewRegion() async throws {
        let fixture = try await ObservedDatabase()
        let fetchIsRunning = OneShot<Void>()
        let mayFinish = OneShot<Void>()
        let collector = Collector(fixture.db.observe { conn -> String in
            // Reads `item` only once a player exists.
            let players = try fixture.playerCount(conn)
            guard players > 0 else { return "players 0" }
            let items = try conn.fetchOne(Int.self, "SELECT count(*) FROM item") ?? -1
            if items == 0 {
                fetchIsRunning.fulfill(())
                mayFinish.wait()
            }
            return "players \(players), items \(items)"
        })
        #expect(try await collector.waitFor(1) == ["players 0"])
        try await fixture.insertPlayer("Ann")
        await fetchIsRunning.value
        // Announced during the fetch, against the tables of the previous fetch (player only).
        try await fixture.insertItem("during the fetch")
        mayFinish.fulfill(())
        #expect(try await collector.waitFor(3) == ["players 0", "players 1, items 0", "players 1, items 1"])
        await collector.cancel()
    }

    @Test("an in-memory database observes on its single connection")
    func inMemoryObservation() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { conn in try conn.execute("CREATE TABLE t(x)") }
        let collector = Collector(db.observe { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM t") ?? -1 })
        #expect(try await collector.waitFor(1) == [0])
        try await db.write { conn in try conn.execute("INSERT INTO t VALUES (1)") }
        #expect(try await collector.waitFor(2) == [0, 1])
        await collector.cancel()
        try await db.close()
    }
}
