import Foundation
import Testing

@testable import Persistance

@Suite("Value observation")
struct ValueObservationTests {
    @Test("the first value comes at once, then one per relevant commit, never a duplicate")
    func valuesFollowCommits() async throws {
        let fixture = try await ObservedDatabase()
        try await fixture.insertPlayer("Ann")
        let collector = Collector(fixture.db.observe { conn in try fixture.playerCount(conn) })
        #expect(try await collector.waitFor(1) == [1])
        try await fixture.insertPlayer("Bob")
        #expect(try await collector.waitFor(2) == [1, 2])
        try await fixture.insertPlayer("Cid")
        #expect(try await collector.waitFor(3) == [1, 2, 3])
        await collector.cancel()
    }

    @Test("commits to other tables, rolled-back and savepoint-rolled-back writes cause no value")
    func irrelevantCommitsAreSilent() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let collector = Collector(fixture.db.observe { conn in
            fetches.withLock { $0 += 1 }
            return try fixture.playerCount(conn)
        })
        #expect(try await collector.waitFor(1) == [0])
        try await fixture.insertItem("another table")
        struct Failure: Error {}
        _ = try? await fixture.db.write { conn in
            try conn.execute("INSERT INTO player(name) VALUES ('rolled back')")
            throw Failure()
        }
        try await fixture.db.write { conn in
            _ = try? conn.savepoint {
                try conn.execute("INSERT INTO player(name) VALUES ('savepoint rolled back')")
                throw Failure()
            }
            try conn.execute("INSERT INTO item(label) VALUES ('another table again')")
        }
        try await fixture.insertPlayer("Ann")
        // The next value is the one the last commit caused, and only one fetch ran for it.
        let values = try await collector.waitFor(2)
        let fetchCount = fetches.withLock { $0 }
        #expect(values == [0, 1])
        #expect(fetchCount == 2)
        await collector.cancel()
    }

    @Test("a burst of commits is coalesced, values only grow, and no commit is fetched twice")
    func burstsAreCoalesced() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let observation = fixture.db.observe { conn in
            fetches.withLock { $0 += 1 }
            return try fixture.playerCount(conn)
        }
        var iterator = observation.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        for index in 1...50 {
            try await fixture.insertPlayer("player \(index)")
        }
        // The consumer was busy during the burst: it gets the newest value, not fifty.
        var values: [Int] = []
        while values.last != 50 {
            guard let value = try await iterator.next() else { break }
            values.append(value)
        }
        #expect(values.last == 50)
        #expect(values == values.sorted() && Set(values).count == values.count)
        #expect(values.count < 50)
        #expect(fetches.withLock { $0 } <= 51)
    }

    @Test("the tables read are found on every fetch, so a fetch that changes what it reads is followed")
    func regionFollowsTheFetch() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.observe { conn -> String in
            let players = try fixture.playerCount(conn)
            guard players > 0 else { return "no players" }
            return "items: \(try conn.fetchOne(Int.self, "SELECT count(*) FROM item") ?? -1)"
        })
        #expect(try await collector.waitFor(1) == ["no players"])
        try await fixture.insertItem("not read yet: no value")
        try await fixture.insertPlayer("Ann")
        let second = try await collector.waitFor(2)
        try await fixture.insertItem("now read")
        let third = try await collector.waitFor(3)
        #expect(second == ["no players", "items: 1"])
        #expect(third == ["no players", "items: 1", "items: 2"])
        await collector.cancel()
    }

    /// SQLite 3.15's authorizer reports no read of a table none of whose columns is used
    /// (`count(*)`, `SELECT 1 FROM t`); the observation finds those in the bytecode, so a
    /// commit to such a table is not missed, and one to another table causes no fetch.
    @Test("tables read without using a column are observed, on every engine")
    func readsWithoutColumnsAreObserved() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let collector = Collector(fixture.db.observe { conn -> String in
            fetches.withLock { $0 += 1 }
            let players = try conn.fetchOne(Int.self, "SELECT (SELECT count(*) FROM player) FROM item LIMIT 1")
            let anyItem = try conn.fetchOne(Int.self, "SELECT EXISTS (SELECT 1 FROM item)") ?? -1
            // A statement that is finalized inside the fetch is found too.
            let statement = try conn.prepare("SELECT 1 FROM item LIMIT 1")
            _ = try statement.step()
            return "players \(players.map(String.init) ?? "-"), items \(anyItem)"
        })
        #expect(try await collector.waitFor(1) == ["players -, items 0"])
        try await fixture.insertItem("first")
        #expect(try await collector.waitFor(2).last == "players 0, items 1")
        try await fixture.insertPlayer("Ann")
        #expect(try await collector.waitFor(3).last == "players 1, items 1")
        try await fixture.db.write { conn in try conn.execute("CREATE TABLE unrelated(x)") }
        try await fixture.db.write { conn in try conn.execute("INSERT INTO unrelated VALUES (1)") }
        try await fixture.insertPlayer("Bob")
        #expect(try await collector.waitFor(4) == ["players -, items 0", "players 0, items 1", "players 1, items 1", "players 2, items 1"])
        #expect(fetches.withLock { $0 } == 4)
        await collector.cancel()
    }

    @Test("a fetch that throws delivers its error and ends the sequence")
    func fetchErrorEndsTheSequence() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.observe { conn in
            try conn.fetchOne(Int.self, "SELECT count(*) FROM no_such_table")
        })
        try await eventually { collector.isFinished }
        let failure = try #require(collector.failure)
        #expect(isDatabaseError(failure, .sqlite))
        #expect(collector.elements.isEmpty)
        try await eventually { fixture.db.changeTracker.subscriberCount == 0 }
    }

    @Test("a fetch that starts failing after a commit delivers the values before, then the error")
    func laterFetchError() async throws {
        let fixture = try await ObservedDatabase()
        struct TooMany: Error {}
        let collector = Collector(fixture.db.observe { conn -> Int in
            let count = try fixture.playerCount(conn)
            if count > 1 { throw TooMany() }
            return count
        })
        try await collector.waitFor(1)
        try await fixture.insertPlayer("Ann")
        try await collector.waitFor(2)
        try await fixture.insertPlayer("Bob")
        try await eventually { collector.isFinished }
        #expect(collector.elements == [0, 1])
        #expect(collector.failure is TooMany)
    }

    @Test("cancelling the consuming task ends the observation and releases the fetch")
    func cancellationReleasesEverything() async throws {
        final class Captured: Sendable {}
        let fixture = try await ObservedDatabase()
        weak var released: Captured?
        let collector: Collector<Int>
        do {
            let captured = Captured()
            released = captured
            collector = Collector(fixture.db.observe { conn in
                _ = captured
                return try fixture.playerCount(conn)
            })
        }
        try await collector.waitFor(1)
        #expect(fixture.db.changeTracker.subscriberCount == 1)
        await collector.cancel()
        try await eventually { fixture.db.changeTracker.subscriberCount == 0 }
        let isReleased = { released == nil }
        #expect(isReleased())
        let hasRecorder = try await fixture.db.write { conn in conn.changeRecorder != nil }
        #expect(!hasRecorder)
    }

    @Test("a commit by another process (another connection) makes the observation fetch again")
    func externalCommitRefetches() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.observe { conn in try fixture.playerCount(conn) })
        #expect(try await collector.waitFor(1) == [0])
        let other = try Connection(path: fixture.db.path)
        try other.execute("INSERT INTO player(name) VALUES ('from elsewhere')")
        try other.close()
        // Noticed by the timer, with no write of ours.
        #expect(try await collector.waitFor(2) == [0, 1])
        await collector.cancel()
    }
}
