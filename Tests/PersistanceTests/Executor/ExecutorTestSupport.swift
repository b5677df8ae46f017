import Foundation
import Testing

@testable import Persistance

/// Thrown by the guards below when the work they watch does not finish in time.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let seconds: Double
    var description: String { "\(what) did not finish within \(seconds) s (deadlock?)" }
}

/// Runs `body` in a task and returns its outcome, or throws `TimedOut` after `seconds`
/// without waiting for it, so a deadlock fails the test instead of hanging the run.
func withTimeout<T: Sendable>(
    _ seconds: Double = 30, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await race(seconds, "async work") { outcome in
        Task {
            do { outcome.fulfill(.success(try await body())) } catch { outcome.fulfill(.failure(error)) }
        }
    }
}

/// Runs the synchronous `body` on a new thread (never on the cooperative pool) and returns
/// its outcome, or throws `TimedOut` after `seconds` without waiting for it.
func onThread<T: Sendable>(_ seconds: Double = 30, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await race(seconds, "synchronous work") { outcome in
        Thread {
            outcome.fulfill(Result { try body() })
        }.start()
    }
}

private func race<T: Sendable>(
    _ seconds: Double, _ what: String, start: (OneShot<Result<T, any Error>>) -> Void
) async throws -> T {
    let outcome = OneShot<Result<T, any Error>>()
    start(outcome)
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        outcome.fulfill(.failure(TimedOut(what: what, seconds: seconds)))
    }
    defer { timer.cancel() }
    return try await outcome.value.get()
}

/// A latch that blocks in database blocks: closed until `open()`, then open for good.
/// Every wait has a deadline, so a block that would wait forever throws instead.
final class Gate: Sendable {
    private let isOpen = Guarded(false)

    func open() {
        isOpen.withLock { $0 = true }
    }

    var isOpened: Bool { isOpen.withLock { $0 } }

    /// Blocks the calling thread until the gate opens; throws `TimedOut` after `seconds`.
    func wait(_ seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !isOpened {
            guard Date() < deadline else { throw TimedOut(what: "waiting for a gate", seconds: seconds) }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    /// Suspends the calling task until the gate opens; throws `TimedOut` after `seconds`.
    func opened(_ seconds: Double = 20) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !isOpened {
            guard Date() < deadline else { throw TimedOut(what: "waiting for a gate", seconds: seconds) }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// Closes `db`, failing with `TimedOut` rather than hanging if running work never ends
/// (closing waits for it).
func closeWithinTimeout(_ db: Database) async throws {
    try await withTimeout { try await db.close() }
}

/// Expects `task` to end with `CancellationError`, within a timeout.
func expectCancelled<T: Sendable>(_ task: Task<T, any Error>, sourceLocation: SourceLocation = #_sourceLocation) async {
    await #expect(throws: CancellationError.self, sourceLocation: sourceLocation) {
        try await withTimeout { try await task.value }
    }
}

/// Starts a write that holds the writer until `release` opens, and returns once it runs.
func holdWriter(_ db: Database, until release: Gate) async throws -> Task<Void, any Error> {
    let running = Gate()
    let write = Task { try await db.write { _ in running.open(); try release.wait() } }
    try await running.opened()
    return write
}

/// Waits until `condition` holds, polling; throws `TimedOut` after `seconds`.
func eventually(_ what: String, within seconds: Double = 20, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw TimedOut(what: what, seconds: seconds) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// The configuration executor tests use for a file: encrypted under the SQLCipher trait
/// (the key is applied to every connection, writer and readers), and without a sync to disk
/// at each commit, so thousands of small transactions stay fast.
func testConfiguration(_ path: String) -> DatabaseConfiguration {
    var configuration = DatabaseConfiguration(path: path)
    configuration.connectionOptions.prepare = { connection in
        if SQLiteEngine.isSQLCipher {
            try connection.execute("PRAGMA key = 'executor-test-key'")
        }
        try connection.execute("PRAGMA synchronous = NORMAL")
    }
    return configuration
}

/// Opens `name` in `directory` (or an in-memory database for `:memory:`) with the test
/// configuration and creates table `t`.
func openTestDatabase(
    _ directory: TemporaryDirectory, _ name: String = "test.sqlite", readerCount: Int? = nil
) async throws -> Database {
    let path = name == ":memory:" ? name : directory.path(name)
    let db = try await Database.open(configuration: testConfiguration(path), readerCount: readerCount)
    try await db.write { conn in
        try conn.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, value INTEGER)")
    }
    return db
}

/// The number of rows of table `t`.
func rowCount(_ conn: Connection) throws -> Int {
    try conn.fetchOne(Int.self, "SELECT count(*) FROM t") ?? 0
}

/// Records an issue unless `outcome` is a `DatabaseError` of `kind`.
func expectFailure<T>(
    _ outcome: Result<T, any Error>, _ kind: DatabaseError.Kind, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(comment, sourceLocation: sourceLocation) { try outcome.get() } throws: { isDatabaseError($0, kind) }
}
