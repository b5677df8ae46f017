import Foundation
import Testing

@testable import Persistance

/// Typed joins: inner and left joins, tuples of columns of every table, self-joins.
@Suite struct QueryJoinTests {
    @Test func innerJoinFetchesTypedTuples() throws {
        try withRelationFixture { conn throws in
            let rows = try RelPlayer.table.query()
                .join(RelTeam.self) { player, team in player.teamID == team.id }
                .order { player, _ in player.name }
                .select { player, team in (player.name, team.name) }
                .fetchAll(conn)
            #expect(rows.map(\.0) == ["Ann", "Bob", "Cy", "Dan"])
            #expect(rows.map(\.1) == ["Reds", "Reds", "Blues", "Blues"])
        }
    }

    @Test func leftJoinGivesNilForMissingRows() throws {
        try withRelationFixture { conn throws in
            let rows: [(String, String?, Int?)] = try RelTeam.table.query()
                .leftJoin(RelPlayer.self) { team, player in player.teamID == team.id }
                .order { team, player in (team.id, player.name) }
                .select { team, player in (team.name, player.name, player.points) }
                .fetchAll(conn)
            #expect(rows.map(\.0) == ["Reds", "Reds", "Blues", "Blues", "Greens"])
            #expect(rows.map(\.1) == ["Ann", "Bob", "Cy", "Dan", nil])
            #expect(rows.map(\.2) == [10, nil, 7, 3, nil])
        }
    }

    @Test func filtersAndOrdersOverEveryTable() throws {
        try withRelationFixture { conn throws in
            let names = try RelPlayer.table.query()
                .join(RelTeam.self) { player, team in player.teamID == team.id }
                .filter { _, team in team.city == "Rome" }
                .filter { player, _ in player.points > 4 }
                .select { player, _ in player.name }
                .fetchAll(conn)
            #expect(names == ["Cy"])
        }
    }

    @Test func selfJoinWithAnAlias() throws {
        try withRelationFixture { conn throws in
            let pairs = try RelEmployee.table.query()
                .join(RelEmployee.self, as: "manager") { employee, manager in employee.managerID == manager.id }
                .order { employee, _ in employee.id }
                .select { employee, manager in (employee.name, manager.name) }
                .fetchAll(conn)
            #expect(pairs.map(\.0) == ["Ben", "Cal", "Dot"])
            #expect(pairs.map(\.1) == ["Ada", "Ada", "Ben"])

            let withBoss = try RelEmployee.table.query()
                .leftJoin(RelEmployee.self, as: "boss") { employee, boss in employee.managerID == boss.id }
                .order { employee, _ in employee.id }
                .select { employee, boss in (employee.name, boss.name) }
                .fetchAll(conn)
            #expect(withBoss.map(\.1) == [nil, "Ada", "Ada", "Ben"])
        }
    }

    @Test func leftJoinComparesOptionalAndNonOptionalColumns() throws {
        try withRelationFixture { conn throws in
            // `name` is a String: optional in the left-joined table, not in the first one.
            let rows = try RelEmployee.table.query()
                .leftJoin(RelEmployee.self, as: "namesake") { employee, namesake in namesake.name == employee.name }
                .filter { employee, namesake in employee.name != namesake.name || namesake.id == nil }
                .select { employee, _ in employee.name }
                .fetchAll(conn)
            #expect(rows.isEmpty)
        }
    }

    @Test func threeTablesJoined() throws {
        try withRelationFixture { conn throws in
            let rows = try RelEmployee.table.query()
                .join(RelEmployee.self, as: "manager") { employee, manager in employee.managerID == manager.id }
                .leftJoin(RelEmployee.self, as: "top") { _, manager, top in manager.managerID == top.id }
                .order { employee, _, _ in employee.id }
                .select { employee, _, top in (employee.name, top.name) }
                .fetchAll(conn)
            #expect(rows.map(\.0) == ["Ben", "Cal", "Dot"])
            #expect(rows.map(\.1) == [nil, nil, "Ada"])
        }
    }

    @Test func joinedQueryFetchesRecordsOfItsFirstTable() throws {
        try withRelationFixture { conn throws in
            let query = RelPlayer.table.query()
                .join(RelTeam.self) { player, team in player.teamID == team.id }
                .filter { _, team in team.name == "Reds" }
            #expect(try query.fetchAll(conn).map(\.name) == ["Ann", "Bob"])
            #expect(try query.fetchCount(conn) == 2)
        }
    }

    @Test func rendersQualifiedQuotedIdentifiers() throws {
        let query = RelPlayer.table.query()
            .leftJoin(RelTeam.self) { player, team in player.teamID == team.id }
            .select { player, team in (player.name, team.name) }
        let sql = try query.clauses.selectSQL().sql
        #expect(sql == #"""
            SELECT "rel ""player"""."name", "rel_team"."name" FROM "rel ""player""" \#
            LEFT JOIN "rel_team" ON "rel ""player"""."team ""id""" = "rel_team"."id"
            """#)
    }

    @Test func ambiguousSelfJoinIsATypedError() throws {
        try withRelationFixture { conn throws in
            let query = RelEmployee.table.query()
                .join(RelEmployee.self) { employee, manager in employee.managerID == manager.id }
            #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
        }
    }

    @Test func deletingThroughAJoinIsInvalid() throws {
        try withRelationFixture { conn throws in
            let query = RelPlayer.table.query()
                .join(RelTeam.self) { player, team in player.teamID == team.id }
                .records
            let error = #expect(throws: DatabaseError.self) { try query.deleteAll(conn) }
            #expect(error?.kind == .invalidQuery)
            #expect(try RelPlayer.table.query().fetchCount(conn) == 5)
        }
    }
}
