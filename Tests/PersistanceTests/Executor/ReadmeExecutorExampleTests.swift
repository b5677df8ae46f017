import Foundation
import Testing

import Persistance

/// The README's executor example, verbatim between the markers, so it keeps compiling
/// (public API only: plain `import`).
@Suite(.timeLimit(.minutes(3))) struct ReadmeExecutorExampleTests {
    @Test func readmeExecutorExample() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("game.sqlite")
        // README example begins
        let db = try await Database.open(configuration: DatabaseConfiguration(path: path))

        // Writes run one at a time, in submission order, each in an immediate transaction:
        // committed when the block returns, rolled back when it throws.
        try await db.write { conn in
            try conn.execute("CREATE TABLE IF NOT EXISTS player(id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            try conn.execute("INSERT INTO player(name, score) VALUES (?, ?)", ["Ann", 10])
            try conn.execute("INSERT INTO player(name, score) VALUES (?, ?)", ["Bob", 3])
        }

        // Reads run concurrently with each other and with the write, each in one snapshot.
        let count = try await db.read { conn in
            try conn.fetchOne(Int.self, "SELECT count(*) FROM player") ?? 0
        }

        // Code that cannot await uses the synchronous variants, which block the calling thread.
        func topPlayer(in db: Database) throws -> String? {
            try db.readSync { conn in
                try conn.fetchOne(String.self, "SELECT name FROM player ORDER BY score DESC LIMIT 1")
            }
        }

        // Cancelling a task interrupts its running statement; the call throws CancellationError.
        let slow = Task {
            try await db.read { conn in
                try conn.fetchOne(Int.self, """
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000)
                    SELECT count(*) FROM c
                    """)
            }
        }
        slow.cancel()

        // A synchronous call from inside a block of the same database would wait for itself:
        // it throws instead of deadlocking.
        do {
            try db.writeSync { _ in try db.writeSync { _ in } }
        } catch DatabaseError.Kind.reentrantAccess {
            print("use the connection you were given")
        }

        // Close waits for running work, fails queued work, then closes every connection.
        try await db.close()
        // README example ends
        #expect(count == 2)
        #expect(try topPlayer(in: try await Database.open(configuration: DatabaseConfiguration(path: path))) == "Ann")
        await #expect(throws: CancellationError.self) { try await slow.value }
    }
}
