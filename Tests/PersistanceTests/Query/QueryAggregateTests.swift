import Foundation
import Testing

@testable import Persistance

/// Typed aggregates: count, sum, avg, min, max, grouped, with NULLs and empty groups.
@Suite struct QueryAggregateTests {
    @Test func groupedAggregatesAreTyped() throws {
        try withRelationFixture { conn throws in
            let rows: [(String, Int, Int, Int?, Double?, Int?, Int?)] = try RelTeam.table.query()
                .leftJoin(RelPlayer.self) { team, player in player.teamID == team.id }
                .group { team, _ in team.id }
                .order { team, _ in team.id }
                .select { team, player in
                    (team.name, player.id.count(), TypedExpression<Int>.countAll, player.points.sum(),
                     player.points.avg(), player.points.min(), player.points.max())
                }
                .fetchAll(conn)
            #expect(rows.map(\.0) == ["Reds", "Blues", "Greens"])
            // NULL points are skipped; a team without players is an empty group.
            #expect(rows.map(\.1) == [2, 2, 0])
            #expect(rows.map(\.2) == [2, 2, 1])
            #expect(rows.map(\.3) == [10, 10, nil])
            #expect(rows.map(\.4) == [10.0, 5.0, nil])
            #expect(rows.map(\.5) == [10, 3, nil])
            #expect(rows.map(\.6) == [10, 7, nil])
        }
    }

    @Test func aggregatesOfAnEmptyTable() throws {
        try withRelationFixture { conn throws in
            let empty = RelPlayer.table.query().filter { $0.name == "nobody" }
            let row = try empty.select { ($0.id.count(), $0.points.sum(), $0.points.avg(), $0.name.max()) }.fetchOne(conn)
            let values = try #require(row)
            #expect(values.0 == 0)
            #expect(values.1 == nil)
            #expect(values.2 == nil)
            #expect(values.3 == nil)
        }
    }

    @Test func aggregatesOfNonOptionalColumnsAreOptional() throws {
        try withRelationFixture { conn throws in
            let row = try RelEmployee.table.query().select { ($0.name.min(), $0.name.max(), $0.name.countDistinct()) }.fetchOne(conn)
            let values = try #require(row)
            #expect(values.0 == "Ada")
            #expect(values.1 == "Dot")
            #expect(values.2 == 4)
        }
    }

    @Test func havingKeepsSomeGroups() throws {
        try withRelationFixture { conn throws in
            let teams = try RelTeam.table.query()
                .join(RelPlayer.self) { team, player in player.teamID == team.id }
                .group { team, _ in team.name }
                .having { _, player in player.points.max() > 8 }
                .select { team, player in (team.name, player.points.sum()) }
                .fetchAll(conn)
            #expect(teams.map(\.0) == ["Reds"])
            #expect(teams.map(\.1) == [10])
        }
    }

    @Test func singleTableGroupBy() throws {
        try withRelationFixture { conn throws in
            let counts = try RelPlayer.table.query()
                .group { $0.teamID }
                .order { $0.teamID }
                .select { ($0.teamID, $0.id.count()) }
                .fetchAll(conn)
            #expect(counts.map(\.0) == [nil, 1, 2])
            #expect(counts.map(\.1) == [1, 2, 2])
        }
    }

    @Test func havingWithoutGroupIsInvalid() throws {
        try withRelationFixture { conn throws in
            let query = RelTeam.table.query()
                .join(RelPlayer.self) { team, player in player.teamID == team.id }
                .having { _, player in player.points.sum() > 10 }
                .select { team, _ in team.name }
            let error = #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
            #expect(error?.kind == .invalidQuery)
        }
    }

    @Test func decodingANullIntoANonOptionalIsATypedError() throws {
        try withRelationFixture { conn throws in
            let query = RelTeam.table.query().select { $0.city }
            #expect(try query.fetchAll(conn) == ["Oslo", "Rome", nil])
            let wrong = SelectQuery<String>(clauses: query.clauses)
            let error = #expect(throws: DatabaseError.self) { try wrong.fetchAll(conn) }
            #expect(error?.kind == .decoding)
        }
    }
}
