import Foundation
import Testing

import PersistanceMacros

// The README's opening example, verbatim between the markers (public API only).
// README at-a-glance begins
@Table("player", indexes: [.index("player_score", on: ["score"])])
struct GlancePlayer {                                   // one declaration: table, columns, coding
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(unique: true) var name: String
    var score: Double = 0
}

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
        var ann = GlancePlayer(name: "Ann", score: 10)
        try GlancePlayer.table.insert(&ann, in: conn)            // ann.id is set
        try GlancePlayer.table.upsert(GlancePlayer(name: "Bob", score: 3), uniqueKey: "name", in: conn)
    }
    return try await db.read { conn in                     // concurrent, one snapshot
        try GlancePlayer.table.query()
            .filter(GlancePlayer.columns.score > 5)              // typed: `score > "5"` does not compile
            .order(GlancePlayer.columns.score.desc)
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
        #expect(try await db.read { try GlancePlayer.table.count(in: $0) } == 2)
        try await db.close()
        _ = TargetRegistry.shared.unregister("game")
    }
}
