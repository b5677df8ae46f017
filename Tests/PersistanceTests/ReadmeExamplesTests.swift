import Foundation
import PersistanceMacros
import Testing

@testable import Persistance

// The README's "Relations" records.
@Table("team")
private struct Team {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var name: String
}

@Table("player")
private struct Player {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(references: Team.self, onDelete: .cascade) var teamID: Int64?
    var name: String
    var points: Int?
}

extension Team {
    static let players = hasMany(Player.self, using: Player.columns.teamID)
}

extension Player {
    static let team = belongsTo(Team.self, using: Player.columns.teamID)
}

// The README's "Associations and defaults" record.
private enum Priority: String, Codable { case low, normal, high }

@Table("task")
private struct TaskItem {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var title: String
    @Column(default: Priority.normal) var priority: Priority       // DEFAULT 'normal'
    @Column(defaultExpression: .currentTimestamp) var createdAt: Date?  // DEFAULT (CURRENT_TIMESTAMP)
}

/// The README's examples, so that they are known to compile and do what they say.
@Suite struct ReadmeExamplesTests {
    @Test func readmeFirstExample() throws {
        let directory = try TemporaryDirectory()
        let conn = try Connection(path: directory.path("notes.sqlite"))
        try conn.execute("CREATE TABLE IF NOT EXISTS note(id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")

        try conn.transaction {
            try conn.execute("INSERT INTO note(title, body) VALUES (?, ?)", ["groceries", "eggs"])
            try conn.execute("INSERT INTO note(title, body) VALUES (:title, :body)", ["title": "c'est ça", "body": nil])
        }

        var printed: [String] = []
        for row in try conn.fetchAll("SELECT id, title, body FROM note ORDER BY id") {
            let title: String = try row.value(named: "title")
            let body: String? = try row.value(named: "body")
            printed.append("\(title) \(body ?? "-")")
        }
        let count = try conn.fetchOne(Int.self, "SELECT count(*) FROM note")

        var caught = false
        do {
            try conn.execute("INSERT INTO note(title) VALUES (NULL)")
        } catch ResultCode.constraintNotNull {
            caught = true
        }
        #expect(printed == ["groceries eggs", "c'est ça -"])
        #expect(count == 2)
        #expect(caught)
    }

    @Test func readmeRelationsExample() throws {
        let conn = try Connection.inMemory()
        try Team.table.create(in: conn)
        try Player.table.create(in: conn)
        _ = try Team.table.insert(contentsOf: [Team(id: 1, name: "Reds"), Team(id: 2, name: "Blues")], in: conn)
        _ = try Player.table.insert(contentsOf: [
            Player(id: 1, teamID: 1, name: "Ann", points: 25), Player(id: 2, teamID: 1, name: "Bob", points: nil),
        ], in: conn)

        // Each player with their team's name: [(String, String)].
        let roster = try Player.table.query()
            .join(Team.self) { player, team in player.teamID == team.id }
            .order { player, _ in player.name }
            .select { player, team in (player.name, team.name) }
            .fetchAll(conn)

        // Whole records beside columns: [(Player, Team?)], the left-joined team nil without a match.
        let withTeams = try Player.table.query()
            .leftJoin(Team.self) { player, team in player.teamID == team.id }
            .order { player, _ in player.name }
            .selectRecords { player, team in (player, team) }
            .fetchAll(conn)

        // Every team, with or without players, and their points: [(String, Int, Int?, Double?)].
        let standings = try Team.table.query()
            .leftJoin(Player.self) { team, player in player.teamID == team.id }
            .group { team, _ in team.id }
            .having { _, player in player.points.sum() > 10 || player.id.count() == 0 }
            .select { team, player in (team.name, player.id.count(), player.points.sum(), player.points.avg()) }
            .fetchAll(conn)

        // A self-join needs an alias; subqueries: IN, and EXISTS correlated with the outer table.
        let rivals = try Team.table.query()
            .join(Team.self, as: "rival") { team, rival in team.id < rival.id }
            .select { team, rival in (team.name, rival.name) }
            .fetchAll(conn)
        let scorers = try Team.table.query()
            .filter { team in .exists(Player.table.query().filter { $0.teamID == team.id && $0.points > 20 }) }
            .fetchAll(conn)
        let reds = Team.table.query().filter(Team.columns.name == "Reds").select { $0.id }
        let named = try Player.table.query().filter(Player.columns.teamID.in(reds)).fetchAll(conn)
        let everyone = try Team.table.query().select { $0.name }
            .union(Player.table.query().select { $0.name })
            .fetchAll(conn)

        #expect(roster.map(\.0) == ["Ann", "Bob"])
        #expect(roster.map(\.1) == ["Reds", "Reds"])
        #expect(withTeams.map(\.0.name) == ["Ann", "Bob"])
        #expect(withTeams.map(\.1?.name) == ["Reds", "Reds"])
        #expect(standings.map(\.0) == ["Reds", "Blues"])
        #expect(standings.map(\.1) == [2, 0])
        #expect(standings.map(\.2) == [25, nil])
        #expect(standings.map(\.3) == [25.0, nil])
        #expect(rivals.map(\.0) == ["Reds"])
        #expect(rivals.map(\.1) == ["Blues"])
        #expect(scorers.map(\.name) == ["Reds"])
        #expect(named.map(\.name) == ["Ann", "Bob"])
        #expect(Set(everyone) == ["Reds", "Blues", "Ann", "Bob"])
    }

    @Test func readmeAssociationsExample() throws {
        let conn = try Connection(path: ":memory:")
        _ = try Team.table.insert(contentsOf: [Team(id: 1, name: "Reds"), Team(id: 2, name: "Blues")], in: conn)
        _ = try Player.table.insert(contentsOf: [
            Player(id: 1, teamID: 1, name: "Ann", points: 25), Player(id: 2, teamID: 1, name: "Bob", points: 30),
            Player(id: 3, teamID: nil, name: "Cy", points: nil),
        ], in: conn)

        // Each team with its players, best first: [(Team, [Player])], in two queries.
        let teams = try Team.table.query().order(Team.columns.name)
            .including(Team.players.order(Player.columns.points.desc))
            .fetchAll(conn)
        // Each player with their team, nil without one: [(Player, Team?)].
        let players = try Player.table.query().including(Player.team).fetchAll(conn)
        // Teams having a player with more than 20 points.
        let strong = try Team.table.query()
            .filter(Team.players.contains(where: Player.columns.points > 20))
            .fetchAll(conn)

        #expect(teams.map(\.0.name) == ["Blues", "Reds"])
        #expect(teams.map { $0.1.map(\.name) } == [[], ["Bob", "Ann"]])
        #expect(players.map { $0.1?.name } == ["Reds", "Reds", nil])
        #expect(strong.map(\.name) == ["Reds"])

        try TaskItem.table.create(in: conn)
        try conn.execute("INSERT INTO task (title) VALUES ('old')")
        var task = TaskItem(title: "new", priority: .high)
        try TaskItem.table.insert(&task, in: conn)
        let tasks = try TaskItem.table.query().order(TaskItem.columns.id).fetchAll(conn)
        #expect(tasks.map(\.priority) == [.normal, .high])
        #expect(tasks.allSatisfy { $0.createdAt != nil })
    }
}
