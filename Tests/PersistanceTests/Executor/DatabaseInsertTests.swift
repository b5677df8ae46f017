import Foundation
import Testing

@testable import Persistance

/// Concurrent inserts on one shared database: each caller gets its own row's id, where
/// reading `lastInsertRowID` in a later block would not promise it.
@Suite struct DatabaseInsertTests {
    private static let callers = 40

    private func openDatabase(_ directory: TemporaryDirectory) async throws -> Database {
        let db = try await Database.open(configuration: DatabaseConfiguration(
            path: directory.url.appendingPathComponent("shared.sqlite").path))
        try await db.write { try RecordFixtures.players.create(in: $0) }
        return db
    }

    /// Checks that each caller's id is the row holding the name it inserted.
    private func expectOwnRows(_ ids: [String: Int64], in db: Database) async throws {
        #expect(ids.count == Self.callers)
        #expect(Set(ids.values).count == Self.callers)
        let stored = try await db.read { conn in
            try conn.fetchAll("SELECT id, name FROM player").map { ($0["id"], $0["name"]) }
        }
        #expect(stored.count == Self.callers)
        for (id, name) in stored {
            guard case .text(let name)? = name, case .integer(let id)? = id else {
                Issue.record("unexpected row \(String(describing: id)), \(String(describing: name))")
                continue
            }
            #expect(ids[name] == id)
        }
    }

    @Test func concurrentRawInsertsEachGetTheirOwnRowID() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openDatabase(directory)
        let ids = try await withThrowingTaskGroup(of: (String, Int64?).self) { group in
            for caller in 0..<Self.callers {
                group.addTask {
                    let name = "caller \(caller)"
                    return (name, try await db.executeInsert("INSERT INTO player(name) VALUES (?)", [name]))
                }
            }
            return try await group.reduce(into: [String: Int64]()) { $0[$1.0] = $1.1 }
        }
        try await expectOwnRows(ids, in: db)
        try await db.close()
    }

    @Test func concurrentTableInsertsEachGetTheirOwnRowID() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openDatabase(directory)
        let ids = try await withThrowingTaskGroup(of: (String, Int64).self) { group in
            for caller in 0..<Self.callers {
                group.addTask {
                    let name = "caller \(caller)"
                    let player = RecordFixtures.Player(id: nil, name: name, score: 1)
                    return (name, try await db.write { try RecordFixtures.players.insert(player, in: $0) })
                }
            }
            return try await group.reduce(into: [String: Int64]()) { $0[$1.0] = $1.1 }
        }
        try await expectOwnRows(ids, in: db)
        try await db.close()
    }
}
