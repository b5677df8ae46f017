import Foundation
import Persistance

/// A player as the demo stores it: a Codable struct with an optional integer id.
private struct DemoPlayer: Record, Codable {
    var id: Int64?
    var name: String
    var score: Double
    var team: String?
}

/// Shows records and tables: a table declared with indexes, a batch insert, upserts,
/// finds and counts, in a database file inside `directory`.
func runRecordsDemo(in directory: String) throws {
    section("Records and tables")
    let players = Table<DemoPlayer>(
        "player", primaryKey: "id",
        columns: [
            .integer("id", primaryKey: .autoincrement),
            .text("name", notNull: true, unique: true),
            .real("score", default: 0),
            .text("team", default: "unassigned"),
        ],
        indexes: [.index("player_score", on: ["score"]), .index("player_team", on: ["team", "score"])])

    let path = (directory as NSString).appendingPathComponent("records-demo.sqlite")
    try? FileManager.default.removeItem(atPath: path)
    let conn = try Connection(path: path)
    defer { try? conn.close() }

    try players.create(in: conn)
    print("created table \"player\" with indexes:",
          try players.indexInfo(in: conn).map { "\($0.name)(\($0.columns.joined(separator: ", ")))" }
              .joined(separator: ", "))

    var roster = [
        DemoPlayer(name: "Ann", score: 10, team: "red"),
        DemoPlayer(name: "Bob", score: 3, team: nil),
        DemoPlayer(name: "c'asa", score: 7, team: "blue"),
    ]
    let ids = try players.insert(contentsOf: &roster, in: conn)
    print("batch-inserted \(roster.count) players atomically, ids \(ids); Bob's team defaulted to",
          try players.find(primaryKey: ids[1], in: conn)?.team ?? "nil")

    let bobID = try players.upsert(DemoPlayer(name: "Bob", score: 4), uniqueKey: "name", in: conn)
    var dee = DemoPlayer(name: "Dee", score: 12, team: "red")
    try players.upsert(&dee, uniqueKey: "name", in: conn)
    print("upserted Bob (updated row \(bobID), nil team kept) and Dee (inserted, id \(dee.id ?? 0))")

    let strong = try players.findAll(where: "score > :score ORDER BY score DESC", ["score": 5], in: conn)
    print("score > 5:", strong.map { "\($0.name) \($0.score)" }.joined(separator: ", "))
    print("IN list:", try players.findAll(where: "name", isIn: ["Ann", "Dee", "Zed"], in: conn).map(\.name).sorted())
    print("latest:", try players.findLatest(in: conn)?.name ?? "none")

    try players.update(["team": nil], where: "name = ?", ["c'asa"], in: conn)
    print("count: \(try players.count(in: conn)) players,",
          "\(try players.count(where: "team = ?", ["unassigned"], in: conn)) unassigned (c'asa's team set to nil → default)")

    try players.truncate(in: conn)
    let fresh = try players.insert(DemoPlayer(name: "Eve", score: 1), in: conn)
    print("truncated; the next insert gets id \(fresh)")
}
