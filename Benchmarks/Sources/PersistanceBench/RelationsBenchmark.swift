import Foundation
#if SQLCipher
import CBenchSQLCipher
#else
import CBenchSQLite
#endif

// Relations: a join of two tables (10,000 members × 10 teams) fetched as typed (String,
// String) tuples, and a grouped aggregate (each team's name, member count and points sum),
// for raw C (the same SQL, prepared once), GRDB's associations (`annotated(withRequired:)`,
// `annotated(with:)` of association aggregates), GRDB through its cached statements (the
// same SQL) and Persistance's typed joins. Every contender runs each workload `repeats`
// times inside one read transaction (`BEGIN` … `COMMIT`), on the same WAL database, in
// rotating order each round; results are checksummed after the clock stops and must agree.
//
//     swift run -c release --package-path Benchmarks persistance-bench relations [rounds] [contender,…]
//
// Naming contenders runs only those (raw C's ratio needs `raw-c` among them): `relations 0
// raw-c,persistance` under callgrind counts one warm-up run of each, one measured region
// (see `measure`) per contender and workload, in the order named.

/// The SQL every hand-written contender runs: the text Persistance renders for its queries
/// (Persistance's tests check the rendering of the same shapes).
enum RelationsSQL {
    static let join = #"SELECT "bench_member"."name", "bench_team"."name" FROM "bench_member" JOIN "bench_team" ON "bench_member"."teamID" = "bench_team"."id""#
    static let aggregate = #"SELECT "bench_team"."name", count("bench_member"."id"), sum("bench_member"."points") FROM "bench_team" LEFT JOIN "bench_member" ON "bench_member"."teamID" = "bench_team"."id" GROUP BY "bench_team"."id""#

    static let teams = 10
    static let members = 10_000
    /// Joins per transaction.
    static let joinRepeats = 10
    /// Aggregates per transaction.
    static let aggregateRepeats = 200
}

/// Every contender of the relations benchmark, raw C first.
private var relationsContenders: [RelationsContender] {
    #if SystemSQLite
    [rawCRelations, persistanceRelations, grdbRelations, grdbCachedRelations]
    #else
    [rawCRelations, persistanceRelations]
    #endif
}

/// What one contender fetched: the join's rows and the aggregate's, checksummed after the clock.
struct RelationsResult {
    var elapsed: Duration
    var checksum: Int
}

/// One contender of the relations benchmark.
struct RelationsContender: Sendable {
    let name: String
    /// Runs the join workload on the database at the path.
    let join: @Sendable (String) throws -> RelationsResult
    /// Runs the aggregate workload on the database at the path.
    let aggregate: @Sendable (String) throws -> RelationsResult
}

func relationsChecksum(_ text: String) -> Int { text.utf8.count &* 31 &+ Int(text.utf8.first ?? 0) }

func joinChecksum(_ rows: [[(String, String)]]) -> Int {
    rows.joined().reduce(0) { $0 &+ relationsChecksum($1.0) &* 7 &+ relationsChecksum($1.1) }
}

func aggregateChecksum(_ rows: [[(String, Int, Int?)]]) -> Int {
    rows.joined().reduce(0) { $0 &+ relationsChecksum($1.0) &+ $1.1 &* 13 &+ ($1.2 ?? -1) &* 17 }
}

// MARK: raw C

private func rawText(_ statement: OpaquePointer, _ index: Int32) -> String {
    guard let text = sqlite3_column_text(statement, index) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
}

private let rawCRelations = RelationsContender(
    name: "raw-c",
    join: { path in
        let connection = try RawConnection(path: path, key: nil)
        let begin = try connection.prepare("BEGIN")
        let commit = try connection.prepare("COMMIT")
        let statement = try connection.prepare(RelationsSQL.join)
        var results: [[(String, String)]] = []
        let elapsed = try measure {
            try connection.run(begin)
            for _ in 0..<RelationsSQL.joinRepeats {
                var rows: [(String, String)] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    rows.append((rawText(statement, 0), rawText(statement, 1)))
                }
                sqlite3_reset(statement)
                results.append(rows)
            }
            try connection.run(commit)
        }
        return RelationsResult(elapsed: elapsed, checksum: joinChecksum(results))
    },
    aggregate: { path in
        let connection = try RawConnection(path: path, key: nil)
        let begin = try connection.prepare("BEGIN")
        let commit = try connection.prepare("COMMIT")
        let statement = try connection.prepare(RelationsSQL.aggregate)
        var results: [[(String, Int, Int?)]] = []
        let elapsed = try measure {
            try connection.run(begin)
            for _ in 0..<RelationsSQL.aggregateRepeats {
                var rows: [(String, Int, Int?)] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    let sum = sqlite3_column_type(statement, 2) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(statement, 2))
                    rows.append((rawText(statement, 0), Int(sqlite3_column_int64(statement, 1)), sum))
                }
                sqlite3_reset(statement)
                results.append(rows)
            }
            try connection.run(commit)
        }
        return RelationsResult(elapsed: elapsed, checksum: aggregateChecksum(results))
    })

// MARK: Running

/// Runs the relations benchmark: `rounds` rounds (after one warm-up), each contender once
/// per workload per round, in rotating order; prints min / median per contender and the
/// ratio of medians to raw C's (raw C's time / the contender's: 1.0 is as fast).
func runRelationsBenchmark(_ arguments: [String]) -> Int32 {
    let rounds = arguments.first.flatMap(Int.init) ?? 5
    let contenders: [RelationsContender]
    do {
        contenders = try selectedContenders(relationsContenders, named: arguments.dropFirst().first, \.name)
    } catch {
        FileHandle.standardError.write(Data("persistance-bench relations: \(error)\n".utf8))
        return 2
    }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("persistance-bench-relations-\(UUID().uuidString.prefix(8))")
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("relations.sqlite").path
        try seedRelationsDatabase(path)
        let workloads: [(String, KeyPath<RelationsContender, @Sendable (String) throws -> RelationsResult>, Int)] = [
            ("join", \.join, RelationsSQL.joinRepeats * RelationsSQL.members),
            ("aggregate", \.aggregate, RelationsSQL.aggregateRepeats),
        ]
        for (workload, run, operations) in workloads {
            var samples: [String: [Double]] = [:]
            var checksums: [String: Int] = [:]
            for round in 0...rounds {
                let count = contenders.count
                for offset in 0..<count {
                    let contender = contenders[(round + offset) % count]
                    let result = try contender[keyPath: run](path)
                    if let expected = checksums.values.first, expected != result.checksum {
                        throw BenchError("relations \(workload): \(contender.name) fetched other rows")
                    }
                    checksums[contender.name] = result.checksum
                    if round > 0 { samples[contender.name, default: []].append(result.elapsed.seconds) }
                }
            }
            let rawMedian = relationsMedian(samples["raw-c"] ?? [])
            print("\(workload) (\(operations) \(workload == "join" ? "rows" : "queries") per transaction)")
            for contender in contenders {
                let times = samples[contender.name] ?? []
                let name = contender.name.padding(toLength: 12, withPad: " ", startingAt: 0)
                let numbers = String(
                    format: "min %8.2f ms  median %8.2f ms  raw C / this %.2f",
                    (times.min() ?? 0) * 1000, relationsMedian(times) * 1000, rawMedian / relationsMedian(times))
                print("  \(name) \(numbers)")
            }
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("persistance-bench relations: \(error)\n".utf8))
        return 1
    }
}

private func relationsMedian(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The contenders named in `list` (comma-separated), in its order; all of them without a list.
func selectedContenders<Contender>(
    _ all: [Contender], named list: String?, _ name: (Contender) -> String
) throws -> [Contender] {
    guard let list else { return all }
    return try list.split(separator: ",").map { wanted in
        guard let contender = all.first(where: { name($0) == wanted }) else {
            throw BenchError("no contender '\(wanted)' (contenders: \(all.map(name).joined(separator: ", ")))")
        }
        return contender
    }
}
