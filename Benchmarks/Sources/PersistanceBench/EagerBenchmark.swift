import Foundation
import Persistance
import PersistanceMacros
#if SQLCipher
import CBenchSQLCipher
#else
import CBenchSQLite
#endif

// Eager loading: 1,000 parents with 10 children each, fetched as each parent with its
// children, for raw C doing the same two queries by hand (the parents, then the children
// `WHERE "parentID" IN (?, …)` with the parents' keys bound, both prepared once), GRDB's
// `including(all:)` and Persistance's `including(_:)`. Every contender runs it `repeats`
// times inside one read transaction (`BEGIN` … `COMMIT`) on the same WAL database, in
// rotating order each round; results are checksummed after the clock stops and must agree.
// Each contender loads once before the clock, in a read transaction of its own, so that
// every one runs the clock with its statements prepared (raw C prepares its two before the
// clock; the libraries prepare theirs, cached per connection, at first use).
//
//     swift run -c release --package-path Benchmarks persistance-bench eager [rounds] [contender,…]
//
// Naming contenders runs only those, as for `relations`.

enum EagerSQL {
    static let parents = 1_000
    static let childrenPerParent = 10
    /// Loads per transaction.
    static let repeats = 20
    static let parentsSQL = #"SELECT * FROM "bench_parent""#
    /// The children's query for `count` keys: the text Persistance renders (SystemSQLite build).
    static func childrenSQL(keys count: Int) -> String {
        #"SELECT * FROM "bench_child" WHERE "parentID" IN ("# + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
}

@Table("bench_parent")
struct EagerParent {
    @Column(primaryKey: .plain) var id: Int64
    var name: String

    static let children = hasMany(EagerChild.self, using: EagerChild.columns.parentID)
}

@Table("bench_child")
struct EagerChild {
    @Column(primaryKey: .plain) var id: Int64
    @Column(references: EagerParent.self) var parentID: Int64
    var name: String
    var value: Int
}

/// One contender: runs the workload on the database at the path; returns the time and a checksum.
struct EagerContender: Sendable {
    let name: String
    let run: @Sendable (String) throws -> (Duration, Int)
}

/// A checksum of parents (id, name) with their children (id, name, value).
func eagerChecksum(_ parent: (Int64, String), _ children: [(Int64, String, Int)]) -> Int {
    children.reduce(Int(parent.0) &* 31 &+ parent.1.utf8.count) { sum, child in
        sum &* 7 &+ Int(child.0) &+ child.1.utf8.count &* 3 &+ child.2
    }
}

/// Every contender, raw C first. The SystemSQLite build only: the SQLCipher build's engine
/// takes at most 999 parameters, fewer than the 1,000 keys raw C binds in one statement.
private var eagerContenders: [EagerContender] {
    #if SystemSQLite
    [rawCEager, persistanceEager, grdbEager]
    #else
    []
    #endif
}

// MARK: raw C

private struct RawParent { var id: Int64; var name: String }
private struct RawChild { var id: Int64; var parentID: Int64; var name: String; var value: Int }

private func rawString(_ statement: OpaquePointer, _ index: Int32) -> String {
    guard let text = sqlite3_column_text(statement, index) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
}

private let rawCEager = EagerContender(name: "raw-c") { path in
    let connection = try RawConnection(path: path, key: nil)
    let begin = try connection.prepare("BEGIN")
    let commit = try connection.prepare("COMMIT")
    let parents = try connection.prepare(EagerSQL.parentsSQL)
    let children = try connection.prepare(EagerSQL.childrenSQL(keys: EagerSQL.parents))
    func load() -> [(RawParent, [RawChild])] {
        var loaded: [(RawParent, [RawChild])] = []
        var slotByID: [Int64: Int] = [:]
        while sqlite3_step(parents) == SQLITE_ROW {
            let parent = RawParent(id: sqlite3_column_int64(parents, 0), name: rawString(parents, 1))
            slotByID[parent.id] = loaded.count
            loaded.append((parent, []))
        }
        sqlite3_reset(parents)
        for (index, (parent, _)) in loaded.enumerated() {
            sqlite3_bind_int64(children, Int32(index + 1), parent.id)
        }
        while sqlite3_step(children) == SQLITE_ROW {
            let child = RawChild(
                id: sqlite3_column_int64(children, 0), parentID: sqlite3_column_int64(children, 1),
                name: rawString(children, 2), value: Int(sqlite3_column_int64(children, 3)))
            if let slot = slotByID[child.parentID] { loaded[slot].1.append(child) }
        }
        sqlite3_reset(children)
        return loaded
    }
    try connection.run(begin)
    _ = load()
    try connection.run(commit)
    var results: [[(RawParent, [RawChild])]] = []
    let elapsed = try measure {
        try connection.run(begin)
        for _ in 0..<EagerSQL.repeats {
            results.append(load())
        }
        try connection.run(commit)
    }
    let checksum = results.joined().reduce(0) { sum, pair in
        sum &+ eagerChecksum((pair.0.id, pair.0.name), pair.1.map { ($0.id, $0.name, $0.value) })
    }
    return (elapsed, checksum)
}

// MARK: Persistance

private let persistanceEager = EagerContender(name: "persistance") { path in
    let db = try Database.openSync(configuration: DatabaseConfiguration(path: path))
    defer { try? db.closeSync() }
    _ = try db.readSync { conn in try EagerParent.table.query().including(EagerParent.children).fetchAll(conn) }
    var results: [[(EagerParent, [EagerChild])]] = []
    let elapsed = try measure {
        try db.readSync { conn in
            for _ in 0..<EagerSQL.repeats {
                results.append(try EagerParent.table.query().including(EagerParent.children).fetchAll(conn))
            }
        }
    }
    let checksum = results.joined().reduce(0) { sum, pair in
        sum &+ eagerChecksum((pair.0.id, pair.0.name), pair.1.map { ($0.id, $0.name, $0.value) })
    }
    return (elapsed, checksum)
}

// MARK: Running

private func seedEagerDatabase(_ path: String) throws {
    let db = try Database.openSync(configuration: DatabaseConfiguration(path: path))
    defer { try? db.closeSync() }
    try db.writeSync { conn in
        _ = try EagerParent.table.insert(
            contentsOf: (1...EagerSQL.parents).map { EagerParent(id: Int64($0), name: "parent \($0)") }, in: conn)
        _ = try EagerChild.table.insert(
            contentsOf: (0..<EagerSQL.parents * EagerSQL.childrenPerParent).map {
                EagerChild(id: Int64($0 + 1), parentID: Int64($0 % EagerSQL.parents + 1), name: "child \($0)", value: $0 % 97)
            }, in: conn)
    }
}

/// Runs the eager-loading benchmark: `rounds` rounds (after one warm-up), each contender once
/// per round in rotating order; prints min / median per contender and raw C's median over
/// the contender's (1.0 is as fast).
func runEagerBenchmark(_ arguments: [String]) -> Int32 {
    let rounds = arguments.first.flatMap(Int.init) ?? 5
    guard !eagerContenders.isEmpty else {
        print("eager: measured in the SystemSQLite build only")
        return 0
    }
    let contenders: [EagerContender]
    do {
        contenders = try selectedContenders(eagerContenders, named: arguments.dropFirst().first, \.name)
    } catch {
        FileHandle.standardError.write(Data("persistance-bench eager: \(error)\n".utf8))
        return 2
    }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("persistance-bench-eager-\(UUID().uuidString.prefix(8))")
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("eager.sqlite").path
        try seedEagerDatabase(path)
        var samples: [String: [Double]] = [:]
        var expected: Int?
        for round in 0...rounds {
            for offset in 0..<contenders.count {
                let contender = contenders[(round + offset) % contenders.count]
                let (elapsed, checksum) = try contender.run(path)
                if let expected, expected != checksum { throw BenchError("eager: \(contender.name) loaded other rows") }
                expected = checksum
                if round > 0 { samples[contender.name, default: []].append(elapsed.seconds) }
            }
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        }
        let rawMedian = median(samples["raw-c"] ?? [])
        print("eager (\(EagerSQL.repeats) loads of \(EagerSQL.parents) parents × \(EagerSQL.childrenPerParent) children per transaction)")
        for contender in contenders {
            let times = samples[contender.name] ?? []
            let numbers = String(
                format: "min %8.2f ms  median %8.2f ms  raw C / this %.2f",
                (times.min() ?? 0) * 1000, median(times) * 1000, rawMedian / median(times))
            print("  \(contender.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(numbers)")
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("persistance-bench eager: \(error)\n".utf8))
        return 1
    }
}
