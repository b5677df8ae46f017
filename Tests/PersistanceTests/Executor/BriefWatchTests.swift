import Testing

@testable import Persistance

/// The brief watch of a thread about to sleep: it reports what it saw and always ends.
@Suite struct BriefWatchTests {
    @Test func anEventThatHappenedAlreadyEndsTheWatchAtOnce() {
        var looks = 0
        let sawIt = BriefWatch.run {
            looks += 1
            return true
        }
        #expect(sawIt)
        #expect(looks == 1)
    }

    @Test func anEventSeenAfterAYieldEndsTheWatch() {
        var looks = 0
        // The second look always comes, right after the first yield, before any time bound.
        let sawIt = BriefWatch.run {
            looks += 1
            return looks == 2
        }
        #expect(sawIt)
        #expect(looks == 2)
    }

    @Test func anEventThatNeverHappensEndsTheWatchAfterAFewLooks() {
        var looks = 0
        let sawIt = BriefWatch.run {
            looks += 1
            return false
        }
        #expect(!sawIt)
        #expect(looks >= 2)
        #expect(looks <= 65)
    }
}
