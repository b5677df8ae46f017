import Foundation
import Testing

import Persistance

/// The README's observation example, verbatim between the markers, so it keeps compiling
/// (public API only: plain `import`).
@Suite(.timeLimit(.minutes(3))) struct ReadmeObservationExampleTests {
    @Test func readmeObservationExample() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("game.sqlite")))
        try await db.write { conn in try conn.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)") }
        // README example begins
        // Row by row, in commit order, from the moment `changes(in:)` is called.
        let playerChanges = db.changes(in: ["player"])   // subscribed here, before the writes below
        let changes = Task {
            var inserted: [Int64] = []
            for await change in playerChanges {
                if case .row(let row) = change, row.kind == .insert { inserted.append(row.rowID) }
                if inserted.count == 2 { break }
            }
            return inserted
        }

        // The value of a fetch, at once and again after each commit that touched what it read.
        let counts = Task {
            var seen: [Int] = []
            for try await count in db.observe({ conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM player") ?? 0 }) {
                seen.append(count)
                if count == 2 { break }
            }
            return seen
        }

        try await db.write { conn in try conn.execute("INSERT INTO player(name) VALUES ('Ann')") }
        try await db.write { conn in try conn.execute("INSERT INTO player(name) VALUES ('Bob')") }
        let insertedRows = await changes.value       // [1, 2]
        let seenCounts = try await counts.value      // ends with 2; never the same commit twice
        // README example ends
        #expect(insertedRows == [1, 2])
        #expect(seenCounts.last == 2 && seenCounts == seenCounts.sorted() && Set(seenCounts).count == seenCounts.count)
    }

    @Test func readmeSharedObservationExample() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("game.sqlite")))
        try await db.write { conn in try conn.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)") }
        // README example begins
        // Fifty clients streaming this cost one fetch per commit that touched `player`.
        let playerCount = db.observe(sharing: "player count") { conn in
            try conn.fetchOne(Int.self, "SELECT count(*) FROM player") ?? 0
        }.removeDuplicates()
        // README example ends
        var iterator = playerCount.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await db.write { conn in try conn.execute("INSERT INTO player(name) VALUES ('Ann')") }
        #expect(try await iterator.next() == 1)
    }
}
