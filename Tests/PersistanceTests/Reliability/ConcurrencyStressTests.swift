import Foundation
import Testing

@testable import Persistance

/// Many tasks and threads read and write one database for a bounded time, a third of the
/// async work cancelled at a random moment. Afterwards the table holds exactly the rows of
/// the writes that returned, every read saw every write that returned before it started,
/// and no call hung.
@Suite(.timeLimit(.minutes(2))) struct ConcurrencyStressTests {
    /// What the workers did, shared between them.
    final class Ledger: Sendable {
        struct Counts: Sendable {
            var nextID: Int64 = 1
            var committed = Set<Int64>()
            var writes = 0, reads = 0, cancelled = 0, rolledBack = 0
            /// Async calls that have returned or thrown.
            var asyncCalls = 0
        }
        let counts = Guarded(Counts())

        func newID() -> Int64 {
            counts.withLock { counts in
                defer { counts.nextID += 1 }
                return counts.nextID
            }
        }
        func committed(_ id: Int64) { counts.withLock { $0.committed.insert(id); $0.writes += 1 } }
        func count(_ outcome: WritableKeyPath<Counts, Int>) { counts.withLock { $0[keyPath: outcome] += 1 } }
        var committedCount: Int { counts.withLock { $0.committed.count } }
    }

    /// How long the workers go on: `duration`, and longer (up to `maximumDuration`) until the
    /// async workers have made `minimumAsyncCalls` calls — on a machine busy with other tests
    /// the cooperative pool can leave them little time.
    struct Schedule: Sendable {
        let start = ContinuousClock.now
        var duration: Duration = .seconds(3)
        var maximumDuration: Duration = .seconds(20)
        var minimumAsyncCalls = 300

        func continues(_ ledger: Ledger) -> Bool {
            let elapsed = ContinuousClock.now - start
            guard elapsed >= duration else { return true }
            return elapsed < maximumDuration && ledger.counts.withLock { $0.asyncCalls } < minimumAsyncCalls
        }
    }

    /// Thrown by a write on purpose, to check that it rolls back.
    struct Refused: Error {}

    /// Thrown by a read that saw the table change during its block (it must see one snapshot).
    struct SnapshotChanged: Error {}

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static let tasks = 16, threads = 2
    /// The most any one call may take before the test calls it hung.
    static let callTimeout = 20.0

    @Test(arguments: ["stress.sqlite", ":memory:"])
    func concurrentReadsWritesAndCancellationsLoseNothing(database: String) async throws {
        let db = try await openTestDatabase(directory, database, readerCount: 4)
        let ledger = Ledger()
        let schedule = Schedule()
        let threadsDone = (0..<Self.threads).map { _ in OneShot<Void>() }
        for done in threadsDone {
            Thread {
                Self.runSynchronousWorker(db, ledger, while: schedule)
                done.fulfill(())
            }.start()
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask { await Self.runAsyncWorker(db, ledger, while: schedule) }
            }
        }
        for done in threadsDone {
            _ = try await withTimeout(Self.callTimeout) { await done.value }
        }
        let counts = ledger.counts.withLock { $0 }
        let stored = try await db.read { conn in Set(try conn.fetchAll(Int64.self, "SELECT id FROM t")) }
        let lost = counts.committed.subtracting(stored), unexpected = stored.subtracting(counts.committed)
        #expect(stored.count == counts.committed.count)
        #expect(lost.isEmpty && unexpected.isEmpty, "rows lost: \(lost.count), rows never committed: \(unexpected.count)")
        #expect(try await db.read { conn in try conn.fetchOne(String.self, "PRAGMA integrity_check") } == "ok")
        try await closeWithinTimeout(db)
        print("concurrency stress (\(database)): \(counts.asyncCalls) async calls, \(counts.writes) writes committed, \(counts.reads) reads, "
            + "\(counts.cancelled) cancelled, \(counts.rolledBack) rolled back on purpose, "
            + "\(lost.count) rows lost")
    }

    /// While `schedule` says so: async writes (some slow, some failing on purpose) and reads, a third
    /// of them cancelled after a random pause, each awaited within `callTimeout`.
    private static func runAsyncWorker(_ db: Database, _ ledger: Ledger, while schedule: Schedule) async {
        while schedule.continues(ledger) {
            defer { ledger.count(\.asyncCalls) }
            let choice = Int.random(in: 0..<100)
            let id = ledger.newID()
            let isSlow = Int.random(in: 0..<4) == 0
            let committedBefore = ledger.committedCount
            let work: Task<Int?, any Error>
            switch choice {
            case 0..<40:
                work = Task {
                    try await db.write { conn in
                        try conn.execute("INSERT INTO t(id, value) VALUES (?, ?)", [id, choice])
                        if isSlow { try spin(conn) }
                    }
                    return nil
                }
            case 40..<50:
                work = Task {
                    try await db.write { conn in
                        try conn.execute("INSERT INTO t(id, value) VALUES (?, ?)", [id, choice])
                        throw Refused()
                    }
                }
            default:
                work = Task {
                    try await db.read { conn in
                        let first = try rowCount(conn)
                        if isSlow { try spin(conn) }
                        guard try rowCount(conn) == first else { throw SnapshotChanged() }
                        return first
                    }
                }
            }
            if Int.random(in: 0..<3) == 0 {
                if Bool.random() {
                    try? await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
                } else {
                    await Task.yield()
                }
                work.cancel()
            }
            do {
                let seen = try await withTimeout(callTimeout) { try await work.value }
                if let seen {
                    #expect(seen >= committedBefore, "a read missed writes that had returned before it started")
                    ledger.count(\.reads)
                } else {
                    ledger.committed(id)
                }
            } catch is CancellationError {
                ledger.count(\.cancelled)
            } catch is Refused {
                ledger.count(\.rolledBack)
            } catch {
                Issue.record(error, "unexpected failure of \(choice < 50 ? "a write" : "a read")")
            }
        }
    }

    /// While `schedule` says so: synchronous writes and reads on the calling thread, with a pause
    /// after each so that the async workers (slower to resume on a busy machine) get their turn.
    private static func runSynchronousWorker(_ db: Database, _ ledger: Ledger, while schedule: Schedule) {
        while schedule.continues(ledger) {
            defer { Thread.sleep(forTimeInterval: 0.002) }
            do {
                if Bool.random() {
                    let id = ledger.newID()
                    try db.writeSync { conn in try conn.execute("INSERT INTO t(id, value) VALUES (?, -1)", [id]) }
                    ledger.committed(id)
                } else {
                    let committedBefore = ledger.committedCount
                    let seen = try db.readSync(rowCount)
                    #expect(seen >= committedBefore, "a read missed writes that had returned before it started")
                    ledger.count(\.reads)
                }
            } catch {
                Issue.record(error, "unexpected failure of synchronous work")
            }
        }
    }

    /// Keeps SQLite busy for a few milliseconds, so that cancellation can land mid-statement.
    private static func spin(_ conn: Connection) throws {
        _ = try conn.fetchOne(Int.self, """
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT count(*) FROM c
            """)
    }
}
