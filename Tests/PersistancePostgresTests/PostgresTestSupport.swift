#if PostgreSQL
import Foundation
import Logging
import PersistancePostgres
import Synchronization
import Testing

/// The server the tests run against: `PERSISTANCE_POSTGRES_URL`, which `scripts/test.sh` sets
/// from `scripts/postgres-cluster.sh start`. A missing URL fails the test: these tests never skip.
enum TestServer {
    static func url() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["PERSISTANCE_POSTGRES_URL"],
            "set PERSISTANCE_POSTGRES_URL (scripts/postgres-cluster.sh start prints one)")
    }

    static func configuration() throws -> PostgresConfiguration {
        var configuration = try PostgresConfiguration(url: url())
        configuration.tls = .disable
        return configuration
    }

    static func open(_ adjust: (inout PostgresConfiguration) -> Void = { _ in }) async throws -> PostgresDatabase {
        var configuration = try configuration()
        adjust(&configuration)
        return try await PostgresDatabase.open(configuration: configuration)
    }
}

/// A table name no other test uses.
func uniqueTableName(_ prefix: String = "t") -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}

/// The error `operation` throws, or nil (recorded as an issue) when it does not throw.
func failure(
    of operation: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
    do {
        try await operation()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Cancels `task` once it has run for `delay` and expects it to end with `CancellationError`
/// within `limit`: far less than its statement would take, however loaded the machine is.
func expectCancelled<T: Sendable>(
    _ task: Task<T, any Error>, after delay: Duration, within limit: Duration,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    try await Task.sleep(for: delay)
    let start = ContinuousClock.now
    task.cancel()
    let result = await task.result
    #expect(ContinuousClock.now - start < limit, sourceLocation: sourceLocation)
    #expect(throws: CancellationError.self, sourceLocation: sourceLocation) { try result.get() }
}

/// Counts calls from any task.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Lets `parties` tasks pass once all of them have arrived; open for good afterwards.
actor Barrier {
    private let parties: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) { self.parties = parties }

    func arrive() async {
        arrived += 1
        if arrived >= parties {
            waiting.forEach { $0.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

/// Every message and metadata value logged through it, at every level.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.lines.withLock { $0.append("\(event.level) \(event.message) \(merged)") }
        }
    }
}
#endif
