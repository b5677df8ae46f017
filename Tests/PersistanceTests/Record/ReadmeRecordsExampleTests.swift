import Foundation
import Testing

import Persistance

// The README's "Records and tables" example, verbatim between the markers except for the
// `private` that keeps its names out of the other test files, so that it is proven to
// compile and to do what the README says.

// README example: begin
private struct Player: Record, Codable {
    var id: Int64?
    var name: String
    var score: Double
    var team: String?
}

private let players = Table<Player>("player", primaryKey: "id", columns: [
    .integer("id", primaryKey: .autoincrement),
    .text("name", notNull: true, unique: true),
    .real("score", default: 0),
    .text("team", default: "unassigned"),
], indexes: [.index("player_score", on: ["score"])])

private func playWithRecords(in conn: Connection) throws -> (Player?, [Player], Int) {
    try conn.transaction {
        var ann = Player(id: nil, name: "Ann", score: 10, team: "red")
        try players.insert(&ann, in: conn)                  // creates the table; ann.id == 1
        try players.insert(contentsOf: [                    // all or nothing
            Player(id: nil, name: "Bob", score: 3, team: nil),  // team gets its default
            Player(id: nil, name: "c'asa", score: 7, team: "blue"),
        ], in: conn)
        try players.upsert(                                 // updates Bob, keeps his stored team
            Player(id: nil, name: "Bob", score: 4, team: nil), uniqueKey: "name", in: conn)
    }
    let bob = try players.findAll(where: "name", equals: "Bob", in: conn).first
    let strong = try players.findAll(where: "score > :min ORDER BY score DESC", ["min": 5], in: conn)
    let unassigned = try players.count(where: "team = ?", ["unassigned"], in: conn)
    return (bob, strong, unassigned)                        // Bob 4.0 "unassigned", [Ann, c'asa], 1
}

// The hand-written fast path: read columns by index, write them in table order.
private struct FastPlayer: FastDecodableRecord {
    var id: Int64?
    var name: String
    var score: Double

    static let databaseColumns = ["id", "name", "score"]

    init(id: Int64?, name: String, score: Double) {
        self.id = id
        self.name = name
        self.score = score
    }

    init(statement: Statement, columns: [Int]) {
        id = statement.int64(at: columns[0])
        name = statement.string(at: columns[1])
        score = statement.double(at: columns[2])
    }

    func encode(into container: inout RecordValues) throws {
        let appended = try container.inColumnOrder(of: Self.self) { values in  // an insert into these columns
            try values.append(id)
            try values.append(name)
            try values.append(score)
        }
        if appended { return }
        try container.set(id, forColumn: "id")
        try container.set(name, forColumn: "name")
        try container.set(score, forColumn: "score")
    }

    mutating func didInsert(rowID: Int64, column: String) {
        id = rowID
    }
}
// README example: end

@Suite struct ReadmeRecordsExampleTests {
    @Test func readmeRecordsExample() throws {
        try withTemporaryConnection { conn, _ throws in
            let (bob, strong, unassigned) = try playWithRecords(in: conn)
            #expect(bob?.score == 4 && bob?.team == "unassigned" && bob?.id == 2)
            #expect(strong.map(\.name) == ["Ann", "c'asa"])
            #expect(unassigned == 1)

            let fastPlayers = Table<FastPlayer>("player", columns: players.columns)
            var dee = FastPlayer(id: nil, name: "Dee", score: 12)
            try fastPlayers.insert(&dee, in: conn)
            #expect(dee.id != nil)
            #expect(try fastPlayers.findAll(in: conn).map(\.name).sorted() == ["Ann", "Bob", "Dee", "c'asa"])
        }
    }
}
