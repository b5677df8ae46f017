import Foundation
import Persistance
import PersistanceMacros

// The relations benchmark's Persistance contender (see RelationsBenchmark.swift): typed
// joins and a typed grouped aggregate over records declared with `@Table`.

/// The benchmark's records, declared with the macro.
@Table("bench_team")
struct RelationsTeam {
    @Column(primaryKey: .plain) var id: Int64
    var name: String
}

@Table("bench_member")
struct RelationsMember {
    @Column(primaryKey: .plain) var id: Int64
    @Column(references: RelationsTeam.self) var teamID: Int64
    var name: String
    var points: Int?
}

// MARK: Persistance

private func persistanceDatabase(_ path: String) throws -> Database {
    let db = try Database.openSync(configuration: DatabaseConfiguration(path: path))
    _ = try db.readSync { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") }
    return db
}

let persistanceRelations = RelationsContender(
    name: "persistance",
    join: { path in
        let db = try persistanceDatabase(path)
        defer { try? db.closeSync() }
        var results: [[(String, String)]] = []
        let elapsed = try measure {
            try db.readSync { conn in
                for _ in 0..<RelationsSQL.joinRepeats {
                    let rows = try RelationsMember.table.query()
                        .join(RelationsTeam.self) { member, team in member.teamID == team.id }
                        .select { member, team in (member.name, team.name) }
                        .fetchAll(conn)
                    results.append(rows)
                }
            }
        }
        return RelationsResult(elapsed: elapsed, checksum: joinChecksum(results))
    },
    aggregate: { path in
        let db = try persistanceDatabase(path)
        defer { try? db.closeSync() }
        var results: [[(String, Int, Int?)]] = []
        let elapsed = try measure {
            try db.readSync { conn in
                for _ in 0..<RelationsSQL.aggregateRepeats {
                    let rows = try RelationsTeam.table.query()
                        .leftJoin(RelationsMember.self) { team, member in member.teamID == team.id }
                        .group { team, _ in team.id }
                        .select { team, member in (team.name, member.id.count(), member.points.sum()) }
                        .fetchAll(conn)
                    results.append(rows)
                }
            }
        }
        return RelationsResult(elapsed: elapsed, checksum: aggregateChecksum(results))
    })

/// Creates the two tables at `path` (with the foreign key's index) and fills them.
func seedRelationsDatabase(_ path: String) throws {
    let db = try Database.openSync(configuration: DatabaseConfiguration(path: path))
    defer { try? db.closeSync() }
    try db.writeSync { conn in
        try RelationsTeam.table.create(in: conn)
        try RelationsMember.table.create(in: conn)
        _ = try RelationsTeam.table.insert(
            contentsOf: (1...RelationsSQL.teams).map { RelationsTeam(id: Int64($0), name: "team \($0)") }, in: conn)
        _ = try RelationsMember.table.insert(contentsOf: (1...RelationsSQL.members).map {
            RelationsMember(id: Int64($0), teamID: Int64($0 % RelationsSQL.teams + 1), name: "member \($0)", points: $0 % 7 == 0 ? nil : $0 % 50)
        }, in: conn)
    }
}

