import Foundation
import PersistanceMacros
import Testing

@testable import Persistance

/// Owners filtered by their associated records.
@Suite struct AssociationFilterTests {
    @Test func ownersHavingAMatchingRecord() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try insertLeague(conn)
            let strong = try LeagueTeam.table.query()
                .filter(LeagueTeam.players.contains(where: LeaguePlayer.columns.points > 20)).fetchAll(conn)
            #expect(strong.map(\.name) == ["Reds"])
            let none = try LeagueTeam.table.query()
                .filter(LeagueTeam.players.contains(where: LeaguePlayer.columns.points > 50)).fetchAll(conn)
            #expect(none.isEmpty)
            let without = try LeagueTeam.table.query()
                .filter(!LeagueTeam.players.contains(where: LeaguePlayer.columns.points > 20)).fetchAll(conn)
            #expect(without.map(\.name) == ["Blues"])
        }
    }

    @Test func recordsWhoseOwnerMatches() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try insertLeague(conn)
            let reds = try LeaguePlayer.table.query()
                .filter(LeaguePlayer.team.contains(where: LeagueTeam.columns.name == "Reds"))
                .order(LeaguePlayer.columns.name).fetchAll(conn)
            #expect(reds.map(\.name) == ["Ann", "Bob"])
            let filtered = try LeagueTeam.table.query()
                .filter(LeagueTeam.players.filter(LeaguePlayer.columns.name == "Bob")
                    .contains(where: LeaguePlayer.columns.points > 20))
                .fetchAll(conn)
            #expect(filtered.isEmpty)
        }
    }

    @Test func anUnknownColumnInTheConditionFailsTheQuery() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try insertLeague(conn)
            let query = LeagueTeam.table.query().filter(LeagueTeam.players.contains(where: Column("nope") > 1))
            let fetch = { _ = try query.fetchAll(conn) }
            #expect(throws: DatabaseError.self, performing: fetch)
        }
    }
}
