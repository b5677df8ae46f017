import Foundation
import Testing

@testable import Persistance

/// Synchronous calls between databases whose blocks wait for each other throw
/// `deadlock` instead of hanging. Each race is made deterministic: every block waits at a
/// barrier until all of them run, then makes its call; a timeout guard turns a regression
/// into a failure rather than a hung run.
@Suite(.timeLimit(.minutes(3))) struct DatabaseDeadlockTests {
    /// Holds every arriving thread until `count` have arrived (or throws after a deadline).
    private final class Barrier: Sendable {
        let count: Int
        private let arrived = Guarded(0)

        init(_ count: Int) { self.count = count }

        func arriveAndWait(_ seconds: Double = 20) throws {
            arrived.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(seconds)
            while arrived.withLock({ $0 }) < count {
                guard Date() < deadline else { throw TimedOut(what: "a barrier", seconds: seconds) }
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
    }

    /// Runs one write per database at once; each, once all run, writes synchronously into
    /// the next database of the ring (the last into the first). Returns each write's outcome.
    private func writeInRing(_ databases: [Database]) async throws -> [Result<Void, any Error>] {
        let barrier = Barrier(databases.count)
        let writes = databases.indices.map { index in
            let next = databases[(index + 1) % databases.count]
            return Task {
                try await databases[index].write { _ in
                    try barrier.arriveAndWait()
                    try next.writeSync { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [index]) }
                }
            }
        }
        return try await withTimeout {
            var outcomes = [Result<Void, any Error>]()
            for write in writes {
                do { outcomes.append(.success(try await write.value)) } catch { outcomes.append(.failure(error)) }
            }
            return outcomes
        }
    }

    @Test(arguments: [2, 3])
    func aCycleOfSynchronousWritesThrowsInsteadOfHanging(_ count: Int) async throws {
        let directory = try TemporaryDirectory()
        var databases = [Database]()
        for index in 0..<count {
            databases.append(try await openTestDatabase(directory, "db\(index).sqlite"))
        }
        let outcomes = try await writeInRing(databases)
        // The last call that would close the cycle throws; its write rolls back, which lets
        // every other one go on.
        let deadlocks = outcomes.filter { outcome in
            if case .failure(let error) = outcome { return isDatabaseError(error, .deadlock) }
            return false
        }
        let successes = outcomes.filter { outcome in
            if case .success = outcome { return true }
            return false
        }
        #expect(deadlocks.count == 1)
        #expect(successes.count == count - 1)
        var rows = 0
        for db in databases {
            rows += try await db.read { conn in try rowCount(conn) }
        }
        #expect(rows == count - 1)
        // Nothing is left waiting: the same ring, one at a time, succeeds.
        for (index, db) in databases.enumerated() {
            let next = databases[(index + 1) % count]
            try await withTimeout { try await db.write { _ in try next.writeSync { _ in } } }
        }
        for db in databases {
            try await closeWithinTimeout(db)
        }
    }

    /// A reader waiting for another database's writer does not stop the other reads of its
    /// database: the writer's synchronous read runs on another reader, and nobody throws.
    @Test func aReaderPoolWithAFreeReaderIsNoDeadlock() async throws {
        let directory = try TemporaryDirectory()
        let a = try await openTestDatabase(directory, "a.sqlite", readerCount: 2)
        let b = try await openTestDatabase(directory, "b.sqlite")
        let barrier = Barrier(2)
        let read = Task {
            try await a.read { _ in
                try barrier.arriveAndWait()
                try b.writeSync { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
            }
        }
        let write = Task {
            try await b.write { _ in
                try barrier.arriveAndWait()
                _ = try a.readSync { conn in try rowCount(conn) }
            }
        }
        try await withTimeout {
            try await read.value
            try await write.value
        }
        #expect(try await b.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(a)
        try await closeWithinTimeout(b)
    }
}
