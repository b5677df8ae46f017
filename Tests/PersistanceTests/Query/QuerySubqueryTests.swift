import Foundation
import Testing

@testable import Persistance

/// Subqueries (IN, EXISTS, correlated) and unions.
@Suite struct QuerySubqueryTests {
    @Test func inSubquery() throws {
        try withRelationFixture { conn throws in
            let romeTeams = RelTeam.table.query().filter(RelTeam.columns.city == "Rome").select { $0.id }
            let typed = try RelPlayer.table.query()
                .filter(RelPlayer.columns.teamID.in(romeTeams))
                .select { $0.name }
                .fetchAll(conn)
            #expect(typed == ["Cy", "Dan"])
            let untyped = try RelPlayer.table.query()
                .filter(Column("team \"id\"").in(RelTeam.table.query().filter(RelTeam.columns.city == "Oslo").select(Column("id"))))
                .fetchAll(conn)
            #expect(untyped.map(\.name) == ["Ann", "Bob"])
        }
    }

    @Test func correlatedExists() throws {
        try withRelationFixture { conn throws in
            let withScorers = try RelTeam.table.query()
                .filter { team in
                    SQLExpression.exists(RelPlayer.table.query().filter { $0.teamID == team.id && $0.points > 8 })
                }
                .fetchAll(conn)
            #expect(withScorers.map(\.name) == ["Reds"])

            let empty = try RelTeam.table.query()
                .filter { team in !SQLExpression.exists(RelPlayer.table.query().filter { $0.teamID == team.id }) }
                .fetchAll(conn)
            #expect(empty.map(\.name) == ["Greens"])
        }
    }

    @Test func subqueryBareColumnsBelongToItsOwnTable() throws {
        try withRelationFixture { conn throws in
            // `name` exists in both tables: in the subquery it is the player's.
            let query = RelTeam.table.query()
                .filter { team in
                    SQLExpression.exists(
                        RelPlayer.table.query().filter(RelPlayer.columns.name == "Ann" && RelPlayer.columns.teamID == team.id))
                }
            #expect(try query.qualifyingColumns(true).fetchAll(conn).map(\.name) == ["Reds"])
            #expect(try query.qualifyingColumns(false).fetchAll(conn).map(\.name) == ["Reds"])
        }
    }

    @Test func unionAndUnionAll() throws {
        try withRelationFixture { conn throws in
            let teamNames = RelTeam.table.query().select { $0.name }
            let playerNames = RelPlayer.table.query().select { $0.name }
            let employeeNames = RelEmployee.table.query().filter(RelEmployee.columns.name == "Ada").select { $0.name }
            let all = try teamNames.union(playerNames).union(employeeNames).union(employeeNames)
                .order(Column("name")).fetchAll(conn)
            #expect(all == ["Ada", "Ann", "Blues", "Bob", "Cy", "Dan", "Eve", "Greens", "Reds"])
            #expect(try teamNames.unionAll(teamNames).fetchCount(conn) == 6)

            let records = RelTeam.table.query().filter(RelTeam.columns.id == 1)
                .union(RelTeam.table.query().filter(RelTeam.columns.id == 3))
            #expect(try records.fetchAll(conn).map(\.name) == ["Reds", "Greens"])
        }
    }

    @Test func unionMemberWithItsOwnLimitIsInvalid() throws {
        try withRelationFixture { conn throws in
            let teamNames = RelTeam.table.query().select { $0.name }
            let query = teamNames.union(teamNames.limit(1))
            let error = #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
            #expect(error?.kind == .invalidQuery)
        }
    }

    @Test func subqueryErrorsSurfaceFromTheOuterQuery() throws {
        try withRelationFixture { conn throws in
            let bad = RelPlayer.table.query().filter(Column("id") == SQLExpression.function("no such", Column("id")))
            let query = RelTeam.table.query().filter(SQLExpression.exists(bad))
            let error = #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
            #expect(error?.kind == .invalidQuery)
        }
    }
}
