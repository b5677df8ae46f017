import Foundation
import Testing

@testable import Persistance

/// A committed transaction survives the death of its process at any moment: the crash
/// writer is killed with SIGKILL at random times while it commits, re-keys or migrates,
/// and after every kill the file opens, passes `PRAGMA integrity_check`, and holds every
/// change the writer reported as committed.
@Suite(.timeLimit(.minutes(3))) struct CrashSafetyTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// The keys of the commit and migration runs: encrypted under the `SQLCipher` trait.
    static let keys = SQLiteEngine.isSQLCipher ? ["crash-key-1", "crash-key-2"] : []
    static var keyArguments: [String] { keys.flatMap { ["--key", $0] } }

    /// Opens the file the way an application would (the writer connection of `keys`),
    /// checks its integrity, runs `body` with the connection and closes it.
    private func check<T>(
        _ path: String, keys: [String] = keys, _ body: (Connection) throws -> T
    ) throws -> T {
        var configuration = DatabaseConfiguration(path: path)
        configuration.secretKeys = keys
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(try conn.fetchAll(String.self, "PRAGMA integrity_check") == ["ok"])
        return try body(conn)
    }

    @Test func committedWritesSurviveKills() async throws {
        let path = directory.path("commit.sqlite")
        let arguments = ["commit", path] + Self.keyArguments
        var reported = Set<Int64>()
        var rounds = 0, lost = 0
        for round in 1...25 {
            let run = try await CrashWriter.run(arguments, killedAt: .random(upTo: .milliseconds(300)))
            try #require(run.wasKilled, "the writer stopped by itself (\(run.status)): \(run.errorOutput)")
            reported.formUnion(try reportedIDs(run))
            lost += try check(path) { conn in try checkItemLog(conn, reported: reported, kills: round) }
            rounds = round
        }
        // One last clean run opens what the last kill left and commits again.
        let last = try await CrashWriter.runToEnd(arguments + ["--cycles", "1"])
        #expect(last.status == 0 && last.lines.count == 1, "\(last.errorOutput)")
        #expect(lost == 0)
        print("crash safety (commit): \(rounds) kills survived, \(reported.count) reported commits, \(lost) lost")
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "key rotation needs SQLCipher"))
    func keyRotationSurvivesKills() async throws {
        let path = directory.path("rotate.sqlite")
        let keys = ["rotation-key-a", "rotation-key-b"]
        let arguments = ["rotate", path] + keys.flatMap { ["--key", $0] }
        var reported = Set<Int64>()
        var rounds = 0, lost = 0, openedWith = [String: Int]()
        for round in 1...20 {
            let run = try await CrashWriter.run(arguments, killedAt: .random(upTo: .milliseconds(600)))
            try #require(run.wasKilled, "the writer stopped by itself (\(run.status)): \(run.errorOutput)")
            reported.formUnion(try reportedIDs(run))
            // Exactly one of the two keys opens the file: the one before or the one after
            // the rotation the kill interrupted. The other is refused without changing it.
            var opening: [String] = []
            for key in keys {
                do {
                    lost += try check(path, keys: [key]) { conn in
                        try checkItemLog(conn, reported: reported, kills: round)
                    }
                    opening.append(key)
                } catch DatabaseError.Kind.wrongKey {
                    continue
                }
            }
            #expect(opening.count == 1, "keys that open the file after kill \(round): \(opening)")
            opening.forEach { openedWith[$0, default: 0] += 1 }
            rounds = round
        }
        let last = try await CrashWriter.runToEnd(arguments + ["--cycles", "2"])
        #expect(last.status == 0 && last.lines.count == 2, "\(last.errorOutput)")
        #expect(lost == 0)
        print("crash safety (key rotation): \(rounds) kills survived, \(reported.count) reported commits, "
            + "\(lost) lost, file found keyed with \(openedWith)")
    }

    @Test func migrationSurvivesKills() async throws {
        let path = directory.path("migrate.sqlite")
        let arguments = ["migrate", path] + Self.keyArguments
        let items = 2_000
        try check(path) { conn in
            try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            try conn.transaction {
                for id in 1...items {
                    try conn.execute("INSERT INTO item(id, value) VALUES (?, ?)", [id, id * 7])
                }
            }
        }
        var rounds = 0, transitions = 0, versionsFound = [String: Int]()
        for round in 1...20 {
            let run = try await CrashWriter.run(arguments, killedAt: .random(upTo: .milliseconds(400)))
            try #require(run.wasKilled, "the writer stopped by itself (\(run.status)): \(run.errorOutput)")
            transitions += run.lines.count
            let version = try check(path) { conn in try checkMigrationState(conn, items: items) }
            versionsFound[version, default: 0] += 1
            rounds = round
        }
        let last = try await CrashWriter.runToEnd(arguments + ["--cycles", "1"])
        #expect(last.status == 0 && last.lines == ["up", "down"], "\(last.errorOutput)")
        #expect(try check(path) { conn in try checkMigrationState(conn, items: items) } == "1")
        print("crash safety (migration): \(rounds) kills survived, \(transitions) migrations completed, "
            + "versions found after kills \(versionsFound)")
    }

    /// The item ids a run of the commit or rotation loop reported.
    private func reportedIDs(_ run: CrashWriter.Run) throws -> [Int64] {
        let ids = run.lines.compactMap { Int64($0) }
        try #require(ids.count == run.lines.count, "unexpected output: \(run.lines)")
        return ids
    }

    /// Checks the crash writer's item log: every reported item is there, whole (no torn
    /// transaction), at most one unreported commit per kill, and the tally matches.
    /// Returns how many reported items are missing.
    private func checkItemLog(_ conn: Connection, reported: Set<Int64>, kills: Int) throws -> Int {
        guard try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'item'") == 1 else {
            // Killed before the writer created its tables: nothing can have been committed.
            #expect(reported.isEmpty, "committed items lost with their table")
            return reported.count
        }
        let present = Set(try conn.fetchAll(Int64.self, "SELECT id FROM item"))
        let missing = reported.subtracting(present)
        #expect(missing.isEmpty, "committed items lost: \(missing.sorted())")
        #expect(present.count <= reported.count + kills, "more commits than reported ones and kills")
        let torn = try conn.fetchOne(Int.self, """
            SELECT count(*) FROM item
            WHERE parts != (SELECT count(*) FROM part WHERE part.item = item.id)
               OR bytes != (SELECT coalesce(sum(length(body)), 0) FROM part WHERE part.item = item.id)
            """)
        #expect(torn == 0, "items whose parts are incomplete")
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM part WHERE item NOT IN (SELECT id FROM item)") == 0)
        #expect(try conn.fetchOne(Int.self, "SELECT total FROM tally") == present.count)
        return missing.count
    }

    /// Checks that the schema is exactly the one of the stored version — version 1
    /// `item(id, value)`; 2 adds `item.doubled`; 3 adds `item_tag` and its index — and that no
    /// item was lost or half-rewritten. Returns the version.
    private func checkMigrationState(_ conn: Connection, items: Int) throws -> String {
        let version = try Migrator().storedVersion(in: conn) ?? "1"
        let columns = try conn.fetchAll("PRAGMA table_info(item)").map { try $0.value(named: "name", as: String.self) }
        let objects = try conn.fetchAll(String.self, """
            SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'persistance_%' ORDER BY name
            """)
        switch version {
        case "1":
            #expect(columns == ["id", "value"])
            #expect(objects == ["item"])
        case "2":
            #expect(columns == ["id", "value", "doubled"])
            #expect(objects == ["item"])
        case "3":
            #expect(columns == ["id", "value", "doubled"])
            #expect(objects == ["item", "item_tag", "item_tag_item"])
            #expect(try conn.fetchOne(Int.self, "SELECT count(DISTINCT item) FROM item_tag") == items)
        default:
            Issue.record("unexpected stored version \(version)")
        }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item") == items)
        #expect(try conn.fetchOne(Int.self, "SELECT sum(value) FROM item") == 7 * items * (items + 1) / 2)
        if columns.contains("doubled") {
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item WHERE doubled != 2 * value") == 0)
        }
        return version
    }
}
