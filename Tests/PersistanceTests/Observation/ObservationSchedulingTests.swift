import Foundation
import Testing

@testable import Persistance

/// Value observations are fetched in rounds, off the writer: a commit costs the writer one
/// subscriber however many observations run, commits that land during a round are coalesced
/// into the next one, and one observation's failure leaves the others running.
@Suite("Observation scheduling")
struct ObservationSchedulingTests {
    @Test("any number of value observations make one subscriber of the writer's commits")
    func observationsShareOneSubscription() async throws {
        let fixture = try await ObservedDatabase()
        let collectors = (0..<20).map { index in
            Collector(fixture.db.observe { conn in try fixture.playerCount(conn) + index })
        }
        for (index, collector) in collectors.enumerated() {
            #expect(try await collector.waitFor(1) == [index])
        }
        #expect(fixture.db.changeTracker.subscriberCount == 1)
        #expect(fixture.db.changeTracker.observationScheduler.count == 20)
        try await fixture.insertPlayer("Ann")
        for (index, collector) in collectors.enumerated() {
            #expect(try await collector.waitFor(2) == [index, index + 1])
        }
        for collector in collectors {
            await collector.cancel()
        }
        try await eventually { fixture.db.changeTracker.subscriberCount == 0 }
        #expect(fixture.db.changeTracker.observationScheduler.count == 0)
    }

    @Test("a burst of 1,000 commits during a fetch costs one more fetch, which sees the last commit")
    func burstDuringAFetchCostsOneFetch() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let fetchIsRunning = OneShot<Void>()
        let mayFinish = Gate()
        let collector = Collector(fixture.db.observe { conn -> Int in
            let fetch = fetches.withLock { fetches in
                fetches += 1
                return fetches
            }
            let count = try fixture.playerCount(conn)
            // Held only on a reader: a round that fell back to the writer would hold up the
            // writes it waits for (the fetch count then tells).
            if fetch == 2 {
                fetchIsRunning.fulfill(())
                if conn.options.mode == .readOnly { try mayFinish.wait(60) }
            }
            return count
        })
        #expect(try await collector.waitFor(1) == [0])
        try await fixture.insertPlayer("player 1")
        await fetchIsRunning.value
        // Synchronous writes, each its own commit on the calling thread: 999 awaited writes
        // would each wait for a thread of the cooperative pool, which the rest of the suite
        // keeps busy (they took over 20 s in the full test run).
        for index in 2...1_000 {
            try fixture.db.writeSync { conn in
                try conn.execute("INSERT INTO player(name, score) VALUES (?, 0)", ["player \(index)"])
            }
        }
        mayFinish.open()
        #expect(try await collector.waitUntil { $0 == 1_000 } == [0, 1, 1_000])
        #expect(fetches.withLock { $0 } == 3)
        await collector.cancel()
    }

    @Test("a round held up waiting, not computing, does not hold up the next: rest follows processor time")
    func waitingRoundDoesNotDelayTheNext() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.observe { conn -> Int in
            let count = try fixture.playerCount(conn)
            // One second asleep: resting eight times the round's duration would keep the
            // next round back eight seconds; its processor time is a few microseconds.
            if count == 1 { Thread.sleep(forTimeInterval: 1) }
            return count
        })
        #expect(try await collector.waitFor(1) == [0])
        try await fixture.insertPlayer("slow to observe")
        #expect(try await collector.waitFor(2) == [0, 1])
        try await fixture.insertPlayer("seen at once")
        #expect(try await collector.waitFor(3, within: 4) == [0, 1, 2])
        await collector.cancel()
    }

    @Test("a shared observation fetches once per commit, whatever its number of members")
    func sharedObservationFetchesOncePerCommit() async throws {
        let fixture = try await ObservedDatabase()
        let fetches = Guarded(0)
        let observation = fixture.db.observe(sharing: "players") { conn in
            fetches.withLock { $0 += 1 }
            return try fixture.playerCount(conn)
        }
        let collectors = (0..<50).map { _ in Collector(observation) }
        for collector in collectors {
            #expect(try await collector.waitFor(1) == [0])
        }
        for commit in 1...5 {
            try await fixture.insertPlayer("player \(commit)")
            for collector in collectors {
                try await collector.waitUntil { $0 == commit }
            }
            #expect(fetches.withLock { $0 } == 1 + commit)
        }
        for collector in collectors {
            await collector.cancel()
        }
    }

    @Test("an observation whose fetch throws ends alone: the others of its round go on")
    func oneFailureLeavesTheOthers() async throws {
        let fixture = try await ObservedDatabase()
        struct Refused: Error {}
        let failing = Collector(fixture.db.observe { conn -> Int in
            let count = try fixture.playerCount(conn)
            if count > 0 { throw Refused() }
            return count
        })
        let healthy = Collector(fixture.db.observe { conn in try fixture.playerCount(conn) })
        try await failing.waitFor(1)
        try await healthy.waitFor(1)
        try await fixture.insertPlayer("Ann")
        try await eventually { failing.isFinished }
        #expect(failing.failure is Refused)
        #expect(try await healthy.waitFor(2) == [0, 1])
        try await fixture.insertPlayer("Bob")
        #expect(try await healthy.waitFor(3) == [0, 1, 2])
        #expect(fixture.db.changeTracker.observationScheduler.count == 1)
        await healthy.cancel()
    }

    @Test("an observation made while another's fetch runs gets its first value once that round ends")
    func observationJoiningDuringARound() async throws {
        let fixture = try await ObservedDatabase()
        let fetchIsRunning = OneShot<Void>()
        let mayFinish = Gate()
        let slow = Collector(fixture.db.observe { conn -> Int in
            let count = try fixture.playerCount(conn)
            if count == 1 {
                fetchIsRunning.fulfill(())
                try mayFinish.wait()
            }
            return count
        })
        try await slow.waitFor(1)
        try await fixture.insertPlayer("Ann")
        await fetchIsRunning.value
        let late = Collector(fixture.db.observe { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM item") ?? -1 })
        try await fixture.insertItem("while the round runs")
        mayFinish.open()
        #expect(try await late.waitFor(1) == [1])
        #expect(try await slow.waitFor(2) == [0, 1])
        await slow.cancel()
        await late.cancel()
    }
}
