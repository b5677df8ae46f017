import Foundation
import Testing

@testable import Persistance

@Suite("Shared observations and removeDuplicates")
struct SharedObservationTests {
    @Test("observations with the same key share one fetch per commit and all receive its value")
    func sameKeySharesTheFetch() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let observation = fixture.db.observe(sharing: "players") { conn in
            fetches.withLock { $0 += 1 }
            return try fixture.playerCount(conn)
        }
        let collectors = (0..<10).map { _ in Collector(observation) }
        for collector in collectors {
            #expect(try await collector.waitFor(1) == [0])
        }
        #expect(fetches.withLock { $0 } == 1)
        #expect(fixture.db.changeTracker.sharedObservations.count == 1)
        for commit in 1...3 {
            try await fixture.insertPlayer("player \(commit)")
            for collector in collectors {
                try await collector.waitUntil { $0 == commit }
            }
            #expect(fetches.withLock { $0 } == 1 + commit)
        }
        for collector in collectors {
            #expect(collector.elements == [0, 1, 2, 3])
            await collector.cancel()
        }
        try await eventually { fixture.db.changeTracker.sharedObservations.count == 0 }
        try await eventually { fixture.db.changeTracker.subscriberCount == 0 }
    }

    @Test("different keys, and observations without a key, fetch on their own")
    func differentKeysDoNotShare() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let fetch: @Sendable (Connection) throws -> Int = { conn in
            fetches.withLock { $0 += 1 }
            return try fixture.playerCount(conn)
        }
        let collectors = [
            Collector(fixture.db.observe(sharing: "a", fetch)), Collector(fixture.db.observe(sharing: "b", fetch)),
            Collector(fixture.db.observe(fetch)), Collector(fixture.db.observe(fetch)),
        ]
        for collector in collectors {
            try await collector.waitFor(1)
        }
        #expect(fetches.withLock { $0 } == 4)
        for collector in collectors {
            await collector.cancel()
        }
    }

    @Test("one member leaving does not end the shared observation; a late member starts with the latest value")
    func membersComeAndGo() async throws {
        let fixture = try await ObservedDatabase()
        let observation = fixture.db.observe(sharing: 1) { conn in try fixture.playerCount(conn) }
        let first = Collector(observation)
        let second = Collector(observation)
        try await first.waitFor(1)
        try await second.waitFor(1)
        await first.cancel()
        try await fixture.insertPlayer("Ann")
        #expect(try await second.waitFor(2) == [0, 1])
        let late = Collector(observation)
        #expect(try await late.waitFor(1) == [1])
        await second.cancel()
        await late.cancel()
        try await eventually { fixture.db.changeTracker.subscriberCount == 0 }
    }

    @Test("a shared fetch that throws ends every member with its error")
    func sharedFetchErrorEndsEveryMember() async throws {
        let fixture = try await ObservedDatabase()
        struct TooMany: Error {}
        let observation = fixture.db.observe(sharing: "failing") { conn -> Int in
            let count = try fixture.playerCount(conn)
            if count > 0 { throw TooMany() }
            return count
        }
        let collectors = [Collector(observation), Collector(observation)]
        for collector in collectors {
            try await collector.waitFor(1)
        }
        try await fixture.insertPlayer("Ann")
        for collector in collectors {
            try await eventually { collector.isFinished }
            #expect(collector.failure is TooMany)
            #expect(collector.elements == [0])
        }
        // The ended observation is not joined again: a new one starts.
        let again = Collector(observation)
        try await eventually { again.isFinished }
        #expect(again.failure is TooMany)
    }

    @Test("closing the database ends shared observations")
    func closeEndsSharedObservations() async throws {
        let fixture = try await ObservedDatabase()
        let observation = fixture.db.observe(sharing: "players") { conn in try fixture.playerCount(conn) }
        let collectors = [Collector(observation), Collector(observation)]
        for collector in collectors {
            try await collector.waitFor(1)
        }
        try await fixture.db.close()
        for collector in collectors {
            try await eventually { collector.isFinished }
            #expect(collector.failure == nil)
        }
    }

    @Test("removeDuplicates skips a value equal to the previous one")
    func removeDuplicatesSkipsEqualValues() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let highScorers: @Sendable (Connection) throws -> Int = { conn in
            fetches.withLock { $0 += 1 }
            return try conn.fetchOne(Int.self, "SELECT count(*) FROM player WHERE score > 10") ?? -1
        }
        let deduplicated = Collector(fixture.db.observe(highScorers).removeDuplicates())
        #expect(try await deduplicated.waitFor(1) == [0])
        try await fixture.insertPlayer("low scorer")
        try await eventually { fetches.withLock { $0 } == 2 }
        try await fixture.db.write { conn in try conn.execute("INSERT INTO player(name, score) VALUES ('high', 20)") }
        #expect(try await deduplicated.waitFor(2) == [0, 1])
        #expect(fetches.withLock { $0 } == 3)
        await deduplicated.cancel()
    }

    @Test("removeDuplicates applies to each member of a shared observation alone")
    func removeDuplicatesPerMember() async throws {
        let fixture = try await ObservedDatabase()
        let observation = fixture.db.observe(sharing: "high scorers") { conn in
            try conn.fetchOne(Int.self, "SELECT count(*) FROM player WHERE score > 10") ?? -1
        }
        let all = Collector(observation)
        let deduplicated = Collector(observation.removeDuplicates())
        try await all.waitFor(1)
        try await deduplicated.waitFor(1)
        try await fixture.insertPlayer("low scorer")
        #expect(try await all.waitFor(2) == [0, 0])
        try await fixture.db.write { conn in try conn.execute("INSERT INTO player(name, score) VALUES ('high', 20)") }
        #expect(try await all.waitFor(3) == [0, 0, 1])
        #expect(try await deduplicated.waitFor(2) == [0, 1])
        await all.cancel()
        await deduplicated.cancel()
    }
}
