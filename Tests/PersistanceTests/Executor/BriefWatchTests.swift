import Testing

@testable import Persistance

/// The brief watch of a thread about to sleep: it reports what it saw and always ends.
@Suite struct BriefWatchTests {
    private let briefWatch = BriefWatch(timeLimit: .microseconds(50), load: .idle)

    @Test func anEventThatHappenedAlreadyEndsTheWatchAtOnce() {
        var looks = 0
        let sawIt = briefWatch.run {
            looks += 1
            return true
        }
        #expect(sawIt)
        #expect(looks == 1)
    }

    @Test func anEventSeenAfterAYieldEndsTheWatch() {
        var looks = 0
        // The second look always comes, right after the first yield, before any time bound.
        let sawIt = briefWatch.run {
            looks += 1
            return looks == 2
        }
        #expect(sawIt)
        #expect(looks == 2)
    }

    @Test func anEventThatNeverHappensEndsTheWatchAfterAFewLooks() {
        var looks = 0
        let sawIt = briefWatch.run {
            looks += 1
            return false
        }
        #expect(!sawIt)
        #expect(looks >= 2)
        #expect(looks <= 65)
    }

    /// A time limit of zero or less (the `spinWait` that turns polling off) looks once and
    /// never yields; a limit of minutes is cut to a second, and the yield limit still ends it.
    @Test(arguments: [Duration.zero, .microseconds(-5), .seconds(-3)])
    func aZeroOrNegativeLimitLooksOnce(limit: Duration) {
        let watch = BriefWatch(timeLimit: limit, load: .idle)
        #expect(!watch.watches)
        var looks = 0
        let sawIt = watch.run {
            looks += 1
            return looks == 2
        }
        #expect(!sawIt)
        #expect(looks == 1)
    }

    @Test func aLongLimitStillEndsAfterAFewLooks() {
        let watch = BriefWatch(timeLimit: .seconds(600), load: .overloaded)
        #expect(watch.watches)
        var looks = 0
        let sawIt = watch.run {
            looks += 1
            return false
        }
        #expect(!sawIt)
        #expect(looks == 65)
    }
}
