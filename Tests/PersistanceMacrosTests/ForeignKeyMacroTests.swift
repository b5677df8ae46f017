import Foundation
import PersistanceMacros
import Testing

@Table("league_team")
struct LeagueTeam: Equatable {
    var id: Int64?
    var name: String
}

@Table("league_player")
struct LeaguePlayer: Equatable {
    var id: Int64?
    var name: String
    @Column(references: LeagueTeam.self, onDelete: .cascade) var teamID: Int64
}

/// A table that refers to itself: a manager is another employee.
@Table("employee")
struct Employee: Equatable {
    var id: Int64?
    var name: String
    @Column("manager_id", references: Employee.self, onDelete: .setNull) var managerID: Int64?
}

/// `@Column(references:)`: a foreign key from one declaration.
@Suite struct ForeignKeyMacroTests {
    @Test func aReferenceToAnotherRecordCascades() throws {
        try withTemporaryConnection { conn throws in
            var reds = LeagueTeam(name: "Reds")
            try LeagueTeam.table.insert(&reds, in: conn)
            var ann = LeaguePlayer(name: "Ann", teamID: try #require(reds.id))
            try LeaguePlayer.table.insert(&ann, in: conn)
            let orphan = { try LeaguePlayer.table.insert(LeaguePlayer(name: "Bob", teamID: 42), in: conn) }
            #expect(throws: DatabaseError.self, performing: orphan)
            #expect(LeaguePlayer.table.indexes.map(\.name) == ["league_player_teamID_fkey"])
            _ = try LeagueTeam.table.delete(primaryKey: try #require(reds.id), in: conn)
            #expect(try LeaguePlayer.table.count(in: conn) == 0)
        }
    }

    @Test func aRecordMayReferToItsOwnTable() throws {
        try withTemporaryConnection { conn throws in
            var boss = Employee(name: "Boss")
            try Employee.table.insert(&boss, in: conn)
            var ann = Employee(name: "Ann", managerID: boss.id)
            try Employee.table.insert(&ann, in: conn)
            _ = try Employee.table.delete(primaryKey: try #require(boss.id), in: conn)
            #expect(try Employee.table.find(primaryKey: try #require(ann.id), in: conn)?.managerID == nil)
            let key = try #require(try conn.fetchOne("PRAGMA foreign_key_list(employee)"))
            #expect(try key.value(named: "table") == "employee")
            #expect(try key.value(named: "to") == "id")
        }
    }

    @Test func theMacroWritesTheReference() {
        let declaration = Employee.table.columns.first { $0.name == "manager_id" }
        #expect(declaration?.foreignKey == ForeignKey("employee", column: "id", onDelete: .setNull))
        let team = LeaguePlayer.table.columns.first { $0.name == "teamID" }
        #expect(team?.foreignKey == ForeignKey("league_team", column: "id", onDelete: .cascade))
    }
}
