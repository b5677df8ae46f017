#if SystemSQLite
import Foundation
import GRDB

// The relations benchmark's GRDB contenders (see RelationsBenchmark.swift): GRDB's
// associations (`annotated(withRequired:)`, association aggregates), and the same SQL as
// raw C through GRDB's cached statements.

private struct GRDBTeam: TableRecord, FetchableRecord {
    static let databaseTableName = "bench_team"
    static let members = hasMany(GRDBMember.self, using: ForeignKey(["teamID"]))
    init(row: Row) {}
}

private struct GRDBMember: TableRecord, FetchableRecord {
    static let databaseTableName = "bench_member"
    static let team = belongsTo(GRDBTeam.self, using: ForeignKey(["teamID"]))
    init(row: Row) {}
}

private func grdbQueue(_ path: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.journalMode = .wal
    configuration.busyMode = .timeout(5)
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
    return queue
}

/// `request`/`sql` run through GRDB `repeats` times in one read transaction, rows read by index.
private func grdbRun<Value>(
    _ path: String, repeats: Int, fetch: (Database) throws -> [Value]
) throws -> (Duration, [[Value]]) {
    let queue = try grdbQueue(path)
    var results: [[Value]] = []
    let elapsed = try measure {
        try queue.read { db in
            for _ in 0..<repeats { results.append(try fetch(db)) }
        }
    }
    return (elapsed, results)
}

let grdbRelations = RelationsContender(
    name: "grdb",
    join: { path in
        let request = GRDBMember.select(Column("name"))
            .annotated(withRequired: GRDBMember.team.select(Column("name").forKey("teamName")))
        let (elapsed, results) = try grdbRun(path, repeats: RelationsSQL.joinRepeats) { db in
            try Row.fetchAll(db, request).map { row in (row[0] as String, row[1] as String) }
        }
        return RelationsResult(elapsed: elapsed, checksum: joinChecksum(results))
    },
    aggregate: { path in
        let request = GRDBTeam.select(Column("name"))
            .annotated(with: GRDBTeam.members.count, GRDBTeam.members.sum(Column("points")))
        let (elapsed, results) = try grdbRun(path, repeats: RelationsSQL.aggregateRepeats) { db in
            try Row.fetchAll(db, request).map { row in (row[0] as String, row[1] as Int, row[2] as Int?) }
        }
        return RelationsResult(elapsed: elapsed, checksum: aggregateChecksum(results))
    })

let grdbCachedRelations = RelationsContender(
    name: "grdb-cached",
    join: { path in
        let (elapsed, results) = try grdbRun(path, repeats: RelationsSQL.joinRepeats) { db in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: RelationsSQL.join))
            var values: [(String, String)] = []
            while let row = try rows.next() { values.append((row[0], row[1])) }
            return values
        }
        return RelationsResult(elapsed: elapsed, checksum: joinChecksum(results))
    },
    aggregate: { path in
        let (elapsed, results) = try grdbRun(path, repeats: RelationsSQL.aggregateRepeats) { db in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: RelationsSQL.aggregate))
            var values: [(String, Int, Int?)] = []
            while let row = try rows.next() { values.append((row[0], row[1], row[2])) }
            return values
        }
        return RelationsResult(elapsed: elapsed, checksum: aggregateChecksum(results))
    })

#endif
