import Foundation
import Testing

@testable import Persistance

/// Savepoints written in raw SQL (`SAVEPOINT`, `RELEASE`, `ROLLBACK TO`) are followed like the
/// library's own: the changes a `ROLLBACK TO` undid are never announced.
@Suite("Raw savepoints and change notifications")
struct RawSavepointChangesTests {
    private func insertedIDs(_ changes: [DatabaseChange]) -> [Int64] {
        changes.compactMap { change in
            guard case .row(let row) = change, row.kind == .insert else { return nil }
            return row.rowID
        }
    }

    @Test("ROLLBACK TO in raw SQL drops the changes it undid, whatever the spelling of the name")
    func rolledBackRawSavepointsAreSilent() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["player"]))
        try await fixture.db.write { conn in
            try conn.execute("INSERT INTO player(id, name) VALUES (10, 'kept')")
            try conn.execute("SAVEPOINT a")
            try conn.execute("INSERT INTO player(id, name) VALUES (20, 'undone by ROLLBACK TO A')")
            try conn.execute(#"SAVEPOINT "B""#)
            try conn.execute("INSERT INTO player(id, name) VALUES (30, 'undone by ROLLBACK TO b')")
            try conn.execute("ROLLBACK TRANSACTION TO SAVEPOINT b")
            try conn.execute("INSERT INTO player(id, name) VALUES (31, 'undone by ROLLBACK TO A')")
            try conn.execute("ROLLBACK TO A")
            try conn.execute("INSERT INTO player(id, name) VALUES (40, 'kept: a is still open')")
            try conn.execute("RELEASE a")
            // Several statements in one call, names as a string literal and in brackets.
            try conn.execute("""
                SAVEPOINT 'c'; INSERT INTO player(id, name) VALUES (50, 'undone'); ROLLBACK TO [c];
                INSERT INTO player(id, name) VALUES (60, 'kept'); RELEASE SAVEPOINT "C"
                """)
        }
        let ids = insertedIDs(try await collector.waitFor(3))
        #expect(ids == [10, 40, 60])
        let stored = try await fixture.db.read { conn in try conn.fetchAll(Int64.self, "SELECT id FROM player ORDER BY id") }
        #expect(stored == [10, 40, 60])
        await collector.cancel()
    }

    @Test("a raw savepoint inside a library savepoint, and the other way round")
    func mixedSavepoints() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["player"]))
        try await fixture.db.write { conn in
            try conn.savepoint {
                try conn.execute("SAVEPOINT raw")
                try conn.execute("INSERT INTO player(id, name) VALUES (1, 'undone')")
                try conn.execute("ROLLBACK TO raw")
                try conn.execute("INSERT INTO player(id, name) VALUES (2, 'kept')")
                try conn.execute("RELEASE raw")
            }
            try conn.execute("SAVEPOINT outer")
            try conn.inTransaction {
                try conn.execute("INSERT INTO player(id, name) VALUES (3, 'rolled back by the library')")
                return .rollback
            }
            try conn.execute("INSERT INTO player(id, name) VALUES (4, 'undone by the raw rollback')")
            try conn.execute("ROLLBACK TO outer")
            try conn.execute("INSERT INTO player(id, name) VALUES (5, 'kept')")
            try conn.execute("RELEASE outer")
        }
        let ids = insertedIDs(try await collector.waitFor(2))
        #expect(ids == [2, 5])
        await collector.cancel()
    }

    @Test("random nested raw savepoints: the announced rows are exactly the committed rows")
    func randomSavepointsAnnounceExactlyTheCommittedRows() async throws {
        let fixture = try await ObservedDatabase()
        let collector = Collector(fixture.db.changes(in: ["player"]))
        var random = SeededRandom(seed: 0x5A7E_9011)
        var nextID: Int64 = 1
        for _ in 0..<60 {
            var script: [String] = []
            var open: [String] = []
            for _ in 0..<Int.random(in: 3...14, using: &random) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1:
                    script.append("INSERT INTO player(id, name) VALUES (\(nextID), 'p')")
                    nextID += 1
                case 2:
                    let name = "s\(Int.random(in: 0..<3, using: &random))"
                    open.append(name)
                    script.append("SAVEPOINT \(name)")
                case 3 where !open.isEmpty:
                    let index = Int.random(in: 0..<open.count, using: &random)
                    script.append("ROLLBACK TO \(open[index].uppercased())")
                    open.removeSubrange((open.lastIndex(of: open[index])! + 1)...)
                case 4 where !open.isEmpty:
                    let index = Int.random(in: 0..<open.count, using: &random)
                    script.append("RELEASE \(open[index])")
                    open.removeSubrange(open.lastIndex(of: open[index])!...)
                default:
                    continue
                }
            }
            let statements = script
            try await fixture.db.write { conn in
                for statement in statements { try conn.execute(statement) }
            }
        }
        let sentinel: Int64 = 1_000_000
        try await fixture.db.write { conn in try conn.execute("INSERT INTO player(id, name) VALUES (?, 'end')", [sentinel]) }
        let announced = insertedIDs(try await collector.waitUntil { change in
            if case .row(let row) = change { return row.rowID == sentinel }
            return false
        }).filter { $0 != sentinel }
        let stored = try await fixture.db.read { conn in
            try conn.fetchAll(Int64.self, "SELECT id FROM player WHERE id <> ? ORDER BY id", [sentinel])
        }
        #expect(!stored.isEmpty)
        #expect(announced == stored, "\(Set(announced).subtracting(stored).count) phantom row(s) announced")
        await collector.cancel()
    }

    @Test("the savepoint command of a statement is read from its SQL", arguments: [
        ("SAVEPOINT a", SavepointCommand.open(name: "a")),
        ("  savepoint \"Mixed Case\";", .open(name: "mixed case")),
        ("-- note\nRELEASE a", .release(name: "a")),
        ("RELEASE SAVEPOINT 'x''y'", .release(name: "x'y")),
        ("ROLLBACK TO [n]", .rollback(name: "n")),
        ("rollback transaction to savepoint `T`", .rollback(name: "t")),
    ])
    func parsesSavepointCommands(sql: String, command: SavepointCommand) {
        #expect(SavepointCommand(sql: sql) == command)
    }

    @Test("other statements are not savepoint commands", arguments: [
        "ROLLBACK", "ROLLBACK TRANSACTION", "SELECT 1", "RELEASE", "SAVEPOINT", "REINDEX t",
        "INSERT INTO savepoint VALUES (1)", "/* SAVEPOINT a */ SELECT 1",
    ])
    func ignoresOtherStatements(sql: String) {
        #expect(SavepointCommand(sql: sql) == nil)
    }
}

/// A small deterministic generator (SplitMix64), so a failing random run can be replayed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
