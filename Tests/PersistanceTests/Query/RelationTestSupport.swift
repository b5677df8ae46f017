import Foundation
import PersistanceMacros
import Persistance

/// Teams of the relation tests.
@Table("rel_team")
struct RelTeam: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var name: String
    var city: String?
}

/// Players of the relation tests; `teamID` may be NULL (a free agent).
@Table("rel \"player\"")
struct RelPlayer: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column("team \"id\"", references: RelTeam.self) var teamID: Int64?
    var name: String
    var points: Int?
}

/// Employees and their managers, for self-joins.
@Table("rel_employee")
struct RelEmployee: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var name: String
    var managerID: Int64?
}

/// The relation fixture:
///
/// | team      | city | players (points)            |
/// |-----------|------|-----------------------------|
/// | 1 Reds    | Oslo | Ann (10), Bob (NULL)        |
/// | 2 Blues   | Rome | Cy (7), Dan (3)             |
/// | 3 Greens  | NULL | none                        |
/// | —         |      | Eve (5), no team            |
///
/// Employees: Ada (no manager) manages Ben and Cal; Ben manages Dot.
enum RelationFixture {
    static func create(in conn: Connection) throws {
        try RelTeam.table.create(in: conn)
        try RelPlayer.table.create(in: conn)
        try RelEmployee.table.create(in: conn)
        _ = try RelTeam.table.insert(contentsOf: [
            RelTeam(id: 1, name: "Reds", city: "Oslo"), RelTeam(id: 2, name: "Blues", city: "Rome"),
            RelTeam(id: 3, name: "Greens", city: nil),
        ], in: conn)
        _ = try RelPlayer.table.insert(contentsOf: [
            RelPlayer(id: 1, teamID: 1, name: "Ann", points: 10), RelPlayer(id: 2, teamID: 1, name: "Bob", points: nil),
            RelPlayer(id: 3, teamID: 2, name: "Cy", points: 7), RelPlayer(id: 4, teamID: 2, name: "Dan", points: 3),
            RelPlayer(id: 5, teamID: nil, name: "Eve", points: 5),
        ], in: conn)
        _ = try RelEmployee.table.insert(contentsOf: [
            RelEmployee(id: 1, name: "Ada", managerID: nil), RelEmployee(id: 2, name: "Ben", managerID: 1),
            RelEmployee(id: 3, name: "Cal", managerID: 1), RelEmployee(id: 4, name: "Dot", managerID: 2),
        ], in: conn)
    }
}

/// Runs `body` with a fresh file database holding the relation fixture.
func withRelationFixture<T>(_ body: (Connection) throws -> T) throws -> T {
    try withTemporaryConnection { conn, _ in
        try RelationFixture.create(in: conn)
        return try body(conn)
    }
}
