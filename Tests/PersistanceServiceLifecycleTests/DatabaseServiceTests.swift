import Foundation
import Logging
import Persistance
import PersistanceServiceLifecycle
import ServiceLifecycle
import Testing

/// A server's graceful shutdown through `DatabaseService`: work already submitted finishes,
/// new work is refused, observations end, the database closes, and nothing is lost.
@Suite(.timeLimit(.minutes(1))) struct DatabaseServiceTests {
    /// A new file database with a table `t(x)`, in a directory of its own.
    private func openDatabase() async throws -> (Database, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persistance-service-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("service.sqlite").path
        let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
        try await db.write { conn in try conn.execute("CREATE TABLE t(x INTEGER)") }
        return (db, path)
    }

    @Test func gracefulShutdownFinishesSubmittedWorkEndsObservationsAndCloses() async throws {
        let (db, path) = try await openDatabase()
        let group = ServiceGroup(services: [DatabaseService(db)], logger: Logger(label: "test"))
        let running = Task { try await group.run() }

        // A client streaming an observation, as a server-sent-events handler would.
        let firstValue = AsyncStream.makeStream(of: Void.self)
        let streaming = Task {
            var values: [Int] = []
            for try await count in db.observe({ conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM t") ?? 0 }) {
                values.append(count)
                firstValue.continuation.yield()
            }
            return values
        }
        var waiting = firstValue.stream.makeAsyncIterator()
        _ = await waiting.next()

        // One write running when the shutdown begins, one queued behind it.
        let started = AsyncStream.makeStream(of: Void.self)
        let slow = Task {
            try await db.write { conn in
                started.continuation.yield()
                Thread.sleep(forTimeInterval: 0.3)
                try conn.execute("INSERT INTO t VALUES (1)")
            }
        }
        var startedIterator = started.stream.makeAsyncIterator()
        _ = await startedIterator.next()
        let queued = Task { try await db.write { conn in try conn.execute("INSERT INTO t VALUES (2)") } }
        try await Task.sleep(for: .milliseconds(50))

        await group.triggerGracefulShutdown()
        try await running.value
        try await slow.value
        try await queued.value
        _ = try await streaming.value  // the stream finished normally
        #expect(db.isClosed)
        do {
            try await db.write { conn in try conn.execute("INSERT INTO t VALUES (3)") }
            Issue.record("a write after the shutdown ran")
        } catch let error as DatabaseError {
            #expect(error.kind == .databaseClosed)
        }

        let reopened = try Connection(path: path)
        #expect(try reopened.fetchAll(Int.self, "SELECT x FROM t ORDER BY x") == [1, 2])
        try reopened.close()
    }

    @Test func cancellingTheGroupClosesTheDatabases() async throws {
        let (first, _) = try await openDatabase()
        let (second, _) = try await openDatabase()
        let group = ServiceGroup(services: [DatabaseService(databases: [first, second])], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        try await Task.sleep(for: .milliseconds(50))
        running.cancel()
        _ = try? await running.value
        #expect(first.isClosed)
        #expect(second.isClosed)
    }
}

/// The README's server recipe, verbatim.
func serve(_ db: Database, alongside server: some Service, logger: Logger) async throws {
    let group = ServiceGroup(
        services: [DatabaseService(db), server],     // the database first: it stops last
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    try await group.run()
}

/// A server that serves one write and stops, which ends its group.
struct OneRequestServer: Service {
    let db: Database

    func run() async throws {
        try await db.write { conn in try conn.execute("INSERT INTO t VALUES (42)") }
    }
}

@Suite struct ReadmeServiceExampleTests {
    @Test func theRecipeClosesTheDatabaseWhenTheServerStops() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("persistance-recipe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.appendingPathComponent("r.sqlite").path))
        try await db.write { conn in try conn.execute("CREATE TABLE t(x INTEGER)") }
        try? await serve(db, alongside: OneRequestServer(db: db), logger: Logger(label: "recipe"))
        #expect(db.isClosed)
        let reopened = try Connection(path: directory.appendingPathComponent("r.sqlite").path)
        #expect(try reopened.fetchAll(Int.self, "SELECT x FROM t") == [42])
        try reopened.close()
    }
}
