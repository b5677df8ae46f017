import Foundation
import Persistance

/// The executor demo: a hundred tasks read concurrently while four tasks write, then the
/// counts show that every write landed and that no read ever saw the table shrink.
func runExecutorDemo(in directory: String) async throws {
    section("Executor: serialised writes, concurrent reads")
    let path = URL(fileURLWithPath: directory).appendingPathComponent("executor-demo.sqlite").path
    let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
    try await db.write { conn in
        try conn.execute("DROP TABLE IF EXISTS event")
        try conn.execute("CREATE TABLE event(id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, seq INTEGER NOT NULL)")
    }
    let writers = 4, transactionsPerWriter = 100, rowsPerTransaction = 10
    let readers = 100, readsPerReader = 20
    let clock = ContinuousClock()
    let start = clock.now
    // Each task reports (reads made, reads that saw fewer rows than the task's previous read).
    let (reads, regressions) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
        for writer in 0..<writers {
            group.addTask {
                for transaction in 0..<transactionsPerWriter {
                    try await db.write { conn in
                        for row in 0..<rowsPerTransaction {
                            try conn.execute(
                                "INSERT INTO event(writer, seq) VALUES (?, ?)", [writer, transaction * rowsPerTransaction + row])
                        }
                    }
                }
                return (0, 0)
            }
        }
        for _ in 0..<readers {
            group.addTask {
                var last = 0
                var regressions = 0
                for _ in 0..<readsPerReader {
                    let count = try await db.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM event") ?? 0 }
                    if count < last { regressions += 1 }
                    last = count
                }
                return (readsPerReader, regressions)
            }
        }
        return try await group.reduce(into: (0, 0)) { total, task in
            total.0 += task.0
            total.1 += task.1
        }
    }
    let elapsed = clock.now - start
    let expected = writers * transactionsPerWriter * rowsPerTransaction
    let (rows, perWriter) = try await db.read { conn in
        (
            try conn.fetchOne(Int.self, "SELECT count(*) FROM event") ?? 0,
            try conn.fetchAll(Int.self, "SELECT count(*) FROM event GROUP BY writer ORDER BY writer")
        )
    }
    print("writes:  \(writers) writers × \(transactionsPerWriter) transactions × \(rowsPerTransaction) rows = \(expected) rows")
    print("reads:   \(reads) reads by \(readers) concurrent tasks, \(regressions) saw the count go back")
    print("rows:    \(rows) in the table, per writer \(perWriter) — \(rows == expected ? "no write lost" : "WRITES LOST")")
    print("time:    \(elapsed.formatted(.units(allowed: [.milliseconds]))) with up to \(db.maximumReaderCount) reader connections")
    try await db.close()
    guard rows == expected, regressions == 0 else {
        throw ExecutorDemoFailure(expectedRows: expected, rows: rows, regressions: regressions)
    }
}

/// The executor demo's counts did not add up.
struct ExecutorDemoFailure: Error, CustomStringConvertible {
    let expectedRows: Int
    let rows: Int
    let regressions: Int

    var description: String {
        "executor demo: expected \(expectedRows) rows, found \(rows); \(regressions) reads saw the count go back"
    }
}
