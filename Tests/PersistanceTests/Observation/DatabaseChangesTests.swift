import Foundation
import Testing

@testable import Persistance

@Suite("Database changes")
struct DatabaseChangesTests {
    private func rows(_ changes: [DatabaseChange]) -> [RowChange] {
        changes.compactMap { change in
            if case .row(let row) = change { return row }
            return nil
        }
    }

    @Test("inserts, updates and deletes of watched tables come after commit, in order, row by row")
    func reportsCommittedRows() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["PLAYER"]))
        try await fixture.insertPlayer("Ann")
        try await fixture.insertItem("ignored: another table")
        try await fixture.db.write { conn in
            try conn.execute("UPDATE player SET score = 3 WHERE name = 'Ann'")
            try conn.execute("INSERT INTO player(name) VALUES ('Bob')")
            try conn.execute("DELETE FROM player WHERE name = 'Ann'")
        }
        let changes = rows(try await collector.waitFor(4))
        #expect(changes == [
            RowChange(table: "player", kind: .insert, rowID: 1),
            RowChange(table: "player", kind: .update, rowID: 1),
            RowChange(table: "player", kind: .insert, rowID: 2),
            RowChange(table: "player", kind: .delete, rowID: 1),
        ])
        await collector.cancel()
    }

    @Test("a rolled-back transaction reports nothing")
    func rollbackIsSilent() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["player"]))
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await fixture.db.write { conn in
                try conn.execute("INSERT INTO player(name) VALUES ('rolled back')")
                throw Failure()
            }
        }
        try await fixture.insertPlayer("kept")
        let changes = rows(try await collector.waitFor(1))
        // The rolled-back insert used row id 1 too, and is never reported.
        #expect(changes == [RowChange(table: "player", kind: .insert, rowID: 1)])
        let names = try await fixture.db.read { conn in try conn.fetchAll(String.self, "SELECT name FROM player") }
        #expect(names == ["kept"])
        await collector.cancel()
    }

    @Test("the work of a rolled-back savepoint is not reported; the rest of its transaction is")
    func savepointRollbackIsSilent() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["player"]))
        struct Failure: Error {}
        try await fixture.db.write { conn in
            try conn.execute("INSERT INTO player(id, name) VALUES (10, 'before')")
            _ = try? conn.transaction {
                try conn.execute("INSERT INTO player(id, name) VALUES (20, 'inner, rolled back')")
                try conn.savepoint { try conn.execute("INSERT INTO player(id, name) VALUES (21, 'nested')") }
                throw Failure()
            }
            try conn.inTransaction {
                try conn.execute("INSERT INTO player(id, name) VALUES (30, 'asked to roll back')")
                return .rollback
            }
            try conn.savepoint { try conn.execute("INSERT INTO player(id, name) VALUES (40, 'released')") }
            try conn.execute("INSERT INTO player(id, name) VALUES (50, 'after')")
        }
        let changes = rows(try await collector.waitFor(3))
        #expect(changes.map(\.rowID) == [10, 40, 50])
        await collector.cancel()
    }

    @Test("DELETE without WHERE reports every row (the truncate optimisation is off while observed)")
    func deleteAllReportsEveryRow() async throws {
        let fixture = try await ObservedDatabase()
        try await fixture.db.write { conn in
            for name in ["a", "b", "c"] { try conn.execute("INSERT INTO player(name) VALUES (?)", [name]) }
            // Prepared (and cached) before anyone observes.
            try conn.execute("DELETE FROM player")
            for name in ["a", "b", "c"] { try conn.execute("INSERT INTO player(name) VALUES (?)", [name]) }
        }
        let collector = Collector(fixture.db.changes(in: ["player"]))
        try await fixture.db.write { conn in try conn.execute("DELETE FROM player") }
        let changes = rows(try await collector.waitFor(3))
        #expect(changes.map(\.kind) == [.delete, .delete, .delete])
        #expect(Set(changes.map(\.rowID)).count == 3)
        await collector.cancel()
    }

    @Test("synchronous writes, table API and query builder writes are reported")
    func everyWritePathIsReported() async throws {
        struct Player: Record, Codable { var id: Int64?; var name: String; var score: Double }
        let players = Table<Player>("player", primaryKey: "id", columns: [
            .integer("id", primaryKey: .autoincrement), .text("name"), .real("score"),
        ])
        let directory = try TemporaryDirectory()
        let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("paths.sqlite")))
        try await db.write { conn in try players.create(in: conn) }
        let collector = Collector(db.changes(in: ["player"]))
        try db.writeSync { conn in
            var ann = Player(id: nil, name: "Ann", score: 1)
            try players.insert(&ann, in: conn)
        }
        try await db.write { conn in
            _ = try players.query().filter(Column("name") == "Ann").updateAll(conn, Column("score").set(to: 2))
            _ = try players.query().filter(Column("name") == "Ann").deleteAll(conn)
        }
        let changes = rows(try await collector.waitFor(3))
        #expect(changes.map(\.kind) == [.insert, .update, .delete])
        await collector.cancel()
    }

    @Test("a commit by another connection is reported as external")
    func externalCommitIsReported() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["player"]))
        try await eventually { fixture.db.changeTracker.subscriberCount == 1 }
        // Make sure the recorder (and its data_version baseline) is in place before the other commit.
        try await fixture.insertItem("sync point")
        let other = try Connection(path: fixture.db.path)
        try other.execute("INSERT INTO player(name) VALUES ('from elsewhere')")
        try other.close()
        let changes = try await collector.waitUntil { $0 == .external }
        #expect(changes.contains(.external))
        #expect(rows(changes).isEmpty)
        await collector.cancel()
    }

    @Test("ending the stream unsubscribes and removes the hooks")
    func endingUnsubscribes() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes())
        try await fixture.insertPlayer("Ann")
        try await collector.waitFor(1)
        #expect(fixture.db.changeTracker.subscriberCount == 1)
        await collector.cancel()
        try await eventually { fixture.db.changeTracker.subscriberCount == 0 }
        let hasRecorder = try await fixture.db.write { conn in conn.changeRecorder != nil }
        #expect(!hasRecorder)
    }

    @Test("an unobserved database installs no hooks")
    func unobservedDatabaseHasNoHooks() async throws {
        let fixture = try await ObservedDatabase()
        try await fixture.insertPlayer("Ann")
        let hasRecorder = try await fixture.db.write { conn in conn.changeRecorder != nil }
        #expect(!hasRecorder)
    }

    @Test("an in-memory database reports its changes")
    func inMemoryDatabase() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { conn in try conn.execute("CREATE TABLE t(x)") }
        let collector = Collector(db.changes(in: ["t"]))
        try await db.write { conn in try conn.execute("INSERT INTO t VALUES (1)") }
        #expect(rows(try await collector.waitFor(1)) == [RowChange(table: "t", kind: .insert, rowID: 1)])
        await collector.cancel()
    }
}
