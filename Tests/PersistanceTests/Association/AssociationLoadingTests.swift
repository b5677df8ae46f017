import Foundation
import Logging
import PersistanceMacros
import Testing

@testable import Persistance

/// Eager loading of each association kind: one query per level, typed results, owners
/// without associated records, dangling keys.
@Suite struct AssociationLoadingTests {
    @Test func hasManyGivesEachOwnerItsRecordsInTheAssociationsOrder() throws {
        try withTemporaryConnection { conn, _ throws in
            let (reds, blues) = try insertLeague(conn)
            let teams = try LeagueTeam.table.query().order(LeagueTeam.columns.name)
                .including(LeagueTeam.players.order(LeaguePlayer.columns.points))
                .fetchAll(conn)
            #expect(teams.map(\.0) == [blues, reds])
            let names = teams.map { $0.1.map(\.name) }
            #expect(names == [[], ["Bob", "Ann"]])
            let one = try LeagueTeam.table.query().filter(LeagueTeam.columns.name == "Reds")
                .including(LeagueTeam.players.filter(LeaguePlayer.columns.points > 10)).fetchOne(conn)
            #expect(one?.0 == reds)
            #expect(one?.1.map(\.name) == ["Ann"])
        }
    }

    @Test func nestedLevelsLoadWithOneQueryEach() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        var configuration = DatabaseConfiguration(path: directory.path("league.sqlite"))
        configuration.logger = CapturingLogHandler.logger(store, level: .trace)
        let db = try await Database.open(configuration: configuration)
        _ = try await db.write { conn in try insertLeague(conn).reds.id }
        let before = store.entries(at: .trace).count
        let teams = try await db.read { conn in
            try LeagueTeam.table.query().order(LeagueTeam.columns.name)
                .including(LeagueTeam.players.order(LeaguePlayer.columns.name).including(LeaguePlayer.scores))
                .fetchAll(conn)
                .map { team, players in (team.name, players.map { player, scores in (player.name, scores.map(\.value)) }) }
        }
        try await db.close()
        #expect(teams.count == 2)
        #expect(teams[0].0 == "Blues" && teams[0].1.isEmpty)
        #expect(teams[1].0 == "Reds")
        #expect(teams[1].1.map(\.0) == ["Ann", "Bob"])
        #expect(teams[1].1.map(\.1) == [[10, 20], []])
        let selects = store.entries(at: .trace).dropFirst(before).compactMap { $0.metadata["sql"] }
            .filter { $0.hasPrefix("SELECT") && $0.contains("league") }
        #expect(selects.count == 3)
    }

    @Test func belongsToGivesNilForANullOrDanglingKey() throws {
        var options = Connection.Options()
        options.foreignKeys = false
        try withTemporaryConnection(options: options) { conn, _ throws in
            let (reds, _) = try insertLeague(conn)
            var free = LeaguePlayer(id: nil, teamID: nil, name: "Cy")
            var lost = LeaguePlayer(id: nil, teamID: 99, name: "Dee")
            try LeaguePlayer.table.insert(&free, in: conn)
            try LeaguePlayer.table.insert(&lost, in: conn)
            let players = try LeaguePlayer.table.query().order(LeaguePlayer.columns.name)
                .including(LeaguePlayer.team).fetchAll(conn)
            #expect(players.map(\.0.name) == ["Ann", "Bob", "Cy", "Dee"])
            #expect(players.map(\.1) == [reds, reds, nil, nil])
        }
    }

    @Test func hasOneGivesTheRecordOrNil() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try insertLeague(conn)
            let teams = try LeagueTeam.table.query().order(LeagueTeam.columns.name)
                .including(LeagueTeam.stadium).fetchAll(conn)
            let cities = teams.map { $0.1?.city }
            #expect(cities == [nil, "Lyon"])
        }
    }

    @Test func hasManyThroughFlattensBothSteps() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try insertLeague(conn)
            let teams = try LeagueTeam.table.query().order(LeagueTeam.columns.name)
                .including(LeagueTeam.scores).fetchAll(conn)
            let values = teams.map { $0.1.map(\.value) }
            #expect(values == [[], [10, 20]])

            var ann = SchoolStudent(id: nil, name: "Ann")
            var bob = SchoolStudent(id: nil, name: "Bob")
            try SchoolStudent.table.insert(&ann, in: conn)
            try SchoolStudent.table.insert(&bob, in: conn)
            var courses = [SchoolCourse(id: nil, title: "Art"), SchoolCourse(id: nil, title: "Math")]
            for index in courses.indices { try SchoolCourse.table.insert(&courses[index], in: conn) }
            for (student, course) in [(ann, courses[0]), (ann, courses[1]), (bob, courses[1])] {
                var enrollment = SchoolEnrollment(id: nil, studentID: student.id!, courseID: course.id!)
                try SchoolEnrollment.table.insert(&enrollment, in: conn)
            }
            let students = try SchoolStudent.table.query().order(SchoolStudent.columns.name)
                .including(SchoolStudent.courses).fetchAll(conn)
            let titles = students.map { $0.1.map(\.title) }
            #expect(titles == [["Art", "Math"], ["Math"]])
        }
    }

    @Test func deletingAnOwnerCascadesToWhatItLoads() throws {
        try withTemporaryConnection { conn, _ throws in
            let (reds, _) = try insertLeague(conn)
            _ = try LeagueTeam.table.delete(primaryKey: reds.id!, in: conn)
            #expect(try LeaguePlayer.table.count(in: conn) == 0)
            #expect(try LeagueScore.table.count(in: conn) == 0)
            let teams = try LeagueTeam.table.query().including(LeagueTeam.scores).fetchAll(conn)
            #expect(teams.map(\.0.name) == ["Blues"])
            #expect(teams.map(\.1.count) == [0])
        }
    }

    @Test func keysBeyondTheParameterLimitAreBoundInChunks() throws {
        try withTemporaryConnection { conn, _ throws in
            let teamCount = 2_500
            try conn.transaction {
                for index in 0..<teamCount {
                    var team = LeagueTeam(id: nil, name: "T\(index)")
                    try LeagueTeam.table.insert(&team, in: conn)
                    var player = LeaguePlayer(id: nil, teamID: team.id, name: "P\(index)", points: index)
                    try LeaguePlayer.table.insert(&player, in: conn)
                }
            }
            let teams = try LeagueTeam.table.query().order(LeagueTeam.columns.id)
                .including(LeagueTeam.players.filter(LeaguePlayer.columns.points >= 0)).fetchAll(conn)
            #expect(teams.count == teamCount)
            let eachHasItsOwn = teams.allSatisfy { team, players in players.map(\.name) == ["P" + team.name.dropFirst()] }
            #expect(eachHasItsOwn)
        }
    }

    @Test func aQueryWithoutTheKeyColumnIsAnError() throws {
        try withTemporaryConnection { conn, _ throws in
            _ = try insertLeague(conn)
            let query = LeagueTeam.table.query().select(LeagueTeam.columns.name).including(LeagueTeam.players)
            let fetch = { _ = try query.fetchAll(conn) }
            let error = try #require(throws: DatabaseError.self, performing: fetch)
            #expect(error.kind == .columnNotFound)
            #expect(error.column == "id")
        }
    }
}
