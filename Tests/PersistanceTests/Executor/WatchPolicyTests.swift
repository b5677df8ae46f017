import Testing

@testable import Persistance

/// Callers stop watching their jobs after two failed watches in a row, and watch again at
/// every sixteenth job to learn whether blocks have become short again.
struct WatchPolicyTests {
    private let briefWatch = BriefWatch(timeLimit: .microseconds(50), load: .idle)

    /// Runs one watch per element of `jobEnds` (whether that job ends during the watch) on a
    /// new policy, and returns, job by job, whether the caller watched at all.
    private func watched(_ jobEnds: [Bool]) -> [Bool] {
        let policy = WatchPolicy()
        return jobEnds.map { ends in
            var looked = false
            _ = policy.watch(briefWatch) {
                looked = true
                return ends
            }
            return looked
        }
    }

    @Test func watchingStopsAfterTwoFailuresAndIsTriedAgainAtTheSixteenthJob() {
        let result = watched([false, false] + Array(repeating: true, count: 17))
        #expect(result[0..<2] == [true, true])
        #expect(result[2..<17].allSatisfy { !$0 }, "after two failed watches, 15 jobs go unwatched")
        #expect(result[17], "the sixteenth is watched")
        #expect(result[18], "and its success keeps callers watching")
    }

    @Test func oneFailureBetweenSuccessesKeepsCallersWatching() {
        let result = watched(Array(repeating: [false, true], count: 10).flatMap { $0 })
        #expect(result.allSatisfy { $0 })
    }

    @Test func aFailedTrialWatchStopsWatchingForFifteenJobsAgain() {
        let result = watched([false, false] + Array(repeating: true, count: 15) + [false] + Array(repeating: true, count: 16))
        #expect(result[17], "the trial watch")
        #expect(result[18..<33].allSatisfy { !$0 }, "it failed: 15 jobs go unwatched")
        #expect(result[33])
    }

    @Test func watchReportsWhetherTheJobEnded() {
        let policy = WatchPolicy()
        let ended = policy.watch(briefWatch) { true }
        let notEnded = policy.watch(briefWatch) { false }
        #expect(ended)
        #expect(!notEnded)
    }
}
