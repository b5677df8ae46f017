import Foundation
import Testing

import Persistance

// The README's opening example, verbatim between the markers (public API only).
// README at-a-glance begins
struct GlancePlayer: Record, Codable {           // any Codable type; no base class
    var id: Int64?
    var name: String
    var score: Double
}

let glancePlayers = Table<GlancePlayer>("player", primaryKey: "id", columns: [
    .integer("id", primaryKey: .autoincrement),
    .text("name", notNull: true, unique: true),
    .real("score", default: 0),
], indexes: [.index("player_score", on: ["score"])])

struct Target_game: ConfigurationTarget {        // configures "game.sqlite", "game_main.sqlite", …
    let directory: String
    func filePath(for database: String) -> String? { "\(directory)/\(database)" }
    func secretKeys(for database: String) -> [String] {
        SQLiteEngine.isSQLCipher ? ["2025-key", "2026-key"] : []   // oldest first; needs the SQLCipher trait
    }
}

func topPlayers(directory: String) async throws -> [GlancePlayer] {
    try TargetRegistry.shared.register(Target_game(directory: directory))
    let db = try await Database.open("game_main.sqlite")   // path, keys, migrations resolved here

    try await db.write { conn in                           // one transaction, serialised
        var ann = GlancePlayer(id: nil, name: "Ann", score: 10)
        try glancePlayers.insert(&ann, in: conn)           // ann.id is set
        try glancePlayers.upsert(GlancePlayer(id: nil, name: "Bob", score: 3), uniqueKey: "name", in: conn)
    }
    return try await db.read { conn in                     // concurrent, one snapshot
        try glancePlayers.query()
            .filter(Column("score") > 5 && Column("name") != nil)
            .order(Column("score").desc)
            .limit(10)
            .fetchAll(conn)
    }
}
// README at-a-glance ends

@Suite struct ReadmeAtAGlanceTests {
    @Test func readmeAtAGlance() async throws {
        let directory = try TemporaryDirectory()
        let top = try await topPlayers(directory: directory.url.path)
        #expect(top.map(\.name) == ["Ann"])
        #expect(top.first?.id == 1)
        let db = try await Database.open("game_main.sqlite")
        #expect(try await db.read { try glancePlayers.count(in: $0) } == 2)
        try await db.close()
        _ = TargetRegistry.shared.unregister("game")
    }
}
