#if PostgreSQL
import PostgresNIO
@testable import PersistancePostgres
import Testing

/// The executor that runs the tasks of a connection's prepared statements on its event loop.
@Suite struct EventLoopTaskExecutorTests {
    @Test func aTaskPreferringItRunsOnTheLoopAfterEachSuspension() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let executor = EventLoopTaskExecutor(loop)
        let onTheLoop = try await Task(executorPreference: executor) { () async throws -> [Bool] in
            let atStart = loop.inEventLoop
            // Resumed by the loop, as a statement's result is.
            try await loop.scheduleTask(in: .milliseconds(1)) {}.futureResult.get()
            let afterTheLoopResumedIt = loop.inEventLoop
            // Resumed from elsewhere.
            try await Task.sleep(for: .milliseconds(1))
            return [atStart, afterTheLoopResumedIt, loop.inEventLoop]
        }.value
        #expect(onTheLoop == [true, true, true])
        #expect(!loop.inEventLoop)
    }
}
#endif
