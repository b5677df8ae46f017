import Foundation
import Testing

@testable import Persistance

/// Typed selections of whole records beside columns: `selectRecords { player, team in (player, team.name) }`.
@Suite struct QueryRecordSelectionTests {
    @Test func innerJoinSelectsARecordAndAColumn() throws {
        try withRelationFixture { conn throws in
            let rows: [(RelPlayer, String)] = try RelPlayer.table.query()
                .join(RelTeam.self) { player, team in player.teamID == team.id }
                .order { player, _ in player.name }
                .selectRecords { player, team in (player, team.name) }
                .fetchAll(conn)
            #expect(rows.map(\.0) == [
                RelPlayer(id: 1, teamID: 1, name: "Ann", points: 10), RelPlayer(id: 2, teamID: 1, name: "Bob", points: nil),
                RelPlayer(id: 3, teamID: 2, name: "Cy", points: 7), RelPlayer(id: 4, teamID: 2, name: "Dan", points: 3),
            ])
            #expect(rows.map(\.1) == ["Reds", "Reds", "Blues", "Blues"])
        }
    }

    @Test func leftJoinedColumnsAndRecordsAreNilWithoutAMatch() throws {
        try withRelationFixture { conn throws in
            let rows: [(RelPlayer, String?, RelTeam?)] = try RelPlayer.table.query()
                .leftJoin(RelTeam.self) { player, team in player.teamID == team.id }
                .order { player, _ in player.id }
                .selectRecords { player, team in (player, team.name, team) }
                .fetchAll(conn)
            #expect(rows.map(\.0.name) == ["Ann", "Bob", "Cy", "Dan", "Eve"])
            #expect(rows.map(\.1) == ["Reds", "Reds", "Blues", "Blues", nil])
            #expect(rows.map(\.2) == [
                RelTeam(id: 1, name: "Reds", city: "Oslo"), RelTeam(id: 1, name: "Reds", city: "Oslo"),
                RelTeam(id: 2, name: "Blues", city: "Rome"), RelTeam(id: 2, name: "Blues", city: "Rome"), nil,
            ])
        }
    }

    @Test func aLeftJoinedRecordWithNullColumnsIsStillARecord() throws {
        try withRelationFixture { conn throws in
            // Greens has a NULL city and no players: the team is a record, the player nil.
            let rows: [(RelTeam, RelPlayer?)] = try RelTeam.table.query()
                .leftJoin(RelPlayer.self) { team, player in player.teamID == team.id }
                .filter { team, _ in team.id == 3 }
                .selectRecords { team, player in (team, player) }
                .fetchAll(conn)
            #expect(rows.count == 1)
            #expect(rows.first?.0 == RelTeam(id: 3, name: "Greens", city: nil))
            #expect(rows.first?.1 == nil)
        }
    }

    @Test func selfJoinSelectsBothRecordsUnderTheirAliases() throws {
        try withRelationFixture { conn throws in
            let pairs: [(RelEmployee, RelEmployee?)] = try RelEmployee.table.query()
                .leftJoin(RelEmployee.self, as: "boss") { employee, boss in employee.managerID == boss.id }
                .order { employee, _ in employee.id }
                .selectRecords { employee, boss in (employee, boss) }
                .fetchAll(conn)
            #expect(pairs.map(\.0.name) == ["Ada", "Ben", "Cal", "Dot"])
            #expect(pairs.map(\.1?.name) == [nil, "Ada", "Ada", "Ben"])
            #expect(pairs.map(\.1?.id) == [nil, 1, 1, 2])
        }
    }

    @Test func oneTableSelectsItsRecordBesideAnExpression() throws {
        try withRelationFixture { conn throws in
            let first = try RelTeam.table.query()
                .order(RelTeam.columns.id)
                .selectRecords { team in (team.name, team) }
                .fetchOne(conn)
            #expect(first?.0 == "Reds")
            #expect(first?.1 == RelTeam(id: 1, name: "Reds", city: "Oslo"))
            let count = try RelTeam.table.query()
                .selectRecords { team in (team, team.city) }
                .fetchCount(conn)
            #expect(count == 3)
            let none = try RelTeam.table.query()
                .filter { $0.id == 99 }
                .selectRecords { team in (team, team.city) }
                .fetchOne(conn)
            #expect(none == nil)
        }
    }

    @Test func aValueThatDoesNotFitIsADecodingErrorNamingTheColumn() throws {
        try withRelationFixture { conn throws in
            try conn.execute(#"UPDATE "rel ""player""" SET "points" = 'many' WHERE "id" = 1"#)
            let query = RelPlayer.table.query()
                .join(RelTeam.self) { player, team in player.teamID == team.id }
                .selectRecords { player, team in (player, team.name) }
            let fetch = { _ = try query.fetchAll(conn) }
            let error = try #require(throws: DatabaseError.self, performing: fetch)
            #expect(error.kind == .decoding)
        }
    }

    @Test func rendersQualifiedColumnsOfEachRecord() throws {
        let query = RelEmployee.table.query()
            .join(RelEmployee.self, as: "manager") { employee, manager in employee.managerID == manager.id }
            .selectRecords { employee, manager in (employee.name, manager) }
        let unannotated = try withRelationFixture { conn in try query.fetchAll(conn) }
        #expect(unannotated.map(\.1.name).sorted() == ["Ada", "Ada", "Ben"])
        #expect(try query.clauses.selectSQL().sql == """
            SELECT "rel_employee"."name", "manager"."id", "manager"."name", "manager"."managerID" \
            FROM "rel_employee" JOIN "rel_employee" AS "manager" ON "rel_employee"."managerID" = "manager"."id"
            """)
    }
}
