import Foundation
import Persistance

// Writes under observation: 300 one-row write transactions (each its own awaited
// `db.write`) on a WAL file database seeded with 1,000 rows, with no value observer, then
// with `observers` live ones, each consumed by its own task. Every observer observes the
// newest 20 ids (`SELECT id FROM item ORDER BY id DESC LIMIT 20`); `distinct` makes each
// observer's SQL differ (`LIMIT 20 + i`), so that no two share a fetch. Two times per round:
// the writes' (from the first write until the last one returned: what observers cost the
// writers; target ≤ 1.25× the time with none), and until every observer has received the
// value that reflects the last write (so fetches left for later are counted too).
// With `--shared`, the observers are made with `observe(sharing:)` and one key (what 50
// clients streaming the same value do), so they share one fetch per commit.
//
//     swift run -c release --package-path Benchmarks persistance-bench observers [runs] [observers] [--distinct | --shared]

/// Runs the observer benchmark and prints min / median / max per configuration and the ratio of medians.
func runObserverBenchmark(_ arguments: [String]) -> Int32 {
    var runs = 5
    var observerCount = 50
    var distinct = false
    var shared = false
    var numbers: [Int] = []
    for argument in arguments {
        if argument == "--distinct" {
            distinct = true
        } else if argument == "--shared" {
            shared = true
        } else if let number = Int(argument), number >= 1 {
            numbers.append(number)
        } else {
            FileHandle.standardError.write(Data("persistance-bench observers: unknown argument '\(argument)'\nUSAGE: persistance-bench observers [runs] [observers] [--distinct | --shared]\n".utf8))
            return 2
        }
    }
    if numbers.count > 0 { runs = numbers[0] }
    if numbers.count > 1 { observerCount = numbers[1] }
    let outcome = ObserverOutcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            outcome.set(.success(try await observerReport(runs: runs, observers: observerCount, distinct: distinct, shared: shared)))
        } catch {
            outcome.set(.failure(error))
        }
        done.signal()
    }
    done.wait()
    do {
        for line in try outcome.get().get() { print(line) }
        return 0
    } catch {
        FileHandle.standardError.write(Data("persistance-bench observers: \(error)\n".utf8))
        return 1
    }
}

private let observerWrites = 300
private let observerSeedRows = 1_000

private func observerReport(runs: Int, observers: Int, distinct: Bool, shared: Bool) async throws -> [String] {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("persistance-bench-observers-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var seconds: [Int: [(writes: Double, delivered: Double)]] = [0: [], observers: []]
    // One warm-up round each, then the rounds alternate so a busy phase falls on both.
    for run in 0...runs {
        for count in [0, observers] {
            let path = directory.appendingPathComponent("observers-\(count)-\(run).sqlite").path
            let elapsed = try await observedWrites(path: path, observers: count, distinct: distinct, shared: shared)
            if run > 0 { seconds[count]!.append(elapsed) }
        }
    }
    let kind = distinct ? "distinct" : shared ? "shared" : "identical"
    var lines = ["observers: \(observerWrites) one-row write transactions (await), \(runs) runs each, \(kind) observers, seconds (min / median / max)"]
    for (title, time) in [("writes", { (sample: (writes: Double, delivered: Double)) in sample.writes }), ("until delivered", { $0.delivered })] {
        var medians: [Int: Double] = [:]
        for count in [0, observers] {
            let sorted = seconds[count]!.map(time).sorted()
            medians[count] = sorted[sorted.count / 2]
            let figures = [sorted.first!, sorted[sorted.count / 2], sorted.last!].map { String(format: "%.4f", $0) }
            lines.append("  \(title), \(count) observers: \(figures.joined(separator: " / "))")
        }
        lines.append(String(format: "  \(title), ratio of medians: %.2f×", medians[observers]! / medians[0]!)
            + (title == "writes" ? " (target ≤ 1.25×)" : ""))
    }
    return lines
}

/// One round: the time from the first write until the last one returned, and until every
/// observer has seen it.
private func observedWrites(
    path: String, observers: Int, distinct: Bool, shared: Bool
) async throws -> (writes: Double, delivered: Double) {
    let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
    try await db.write { conn in
        try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
        for value in 0..<observerSeedRows {
            try conn.execute("INSERT INTO item(value) VALUES (?)", [value])
        }
    }
    let lastID = Int(observerSeedRows + observerWrites)
    let started = ObserverCountdown(observers)
    let finished = ObserverCountdown(observers)
    var consumers: [Task<Void, any Error>] = []
    for index in 0..<observers {
        let sql = "SELECT id FROM item ORDER BY id DESC LIMIT \(distinct ? 20 + index : 20)"
        let fetch: @Sendable (Connection) throws -> [Int] = { conn in try conn.fetchAll(Int.self, sql) }
        let observation = shared ? db.observe(sharing: sql, fetch) : db.observe(fetch)
        consumers.append(Task {
            var isFirst = true
            for try await ids in observation {
                if isFirst { started.arrive(); isFirst = false }
                if ids.first == lastID { finished.arrive(); return }
            }
        })
    }
    await started.wait()
    let start = ContinuousClock.now
    for value in 0..<observerWrites {
        try await db.write { conn in try conn.execute("INSERT INTO item(value) VALUES (?)", [value]) }
    }
    let written = ContinuousClock.now - start
    await finished.wait()
    let delivered = ContinuousClock.now - start
    for consumer in consumers { consumer.cancel() }
    for consumer in consumers { _ = try? await consumer.value }
    guard try await db.read({ conn in try conn.fetchOne(Int.self, "SELECT max(id) FROM item") }) == lastID else {
        throw ObserverBenchmarkFailure(description: "the writes did not all land")
    }
    try await db.close()
    let seconds = { (duration: Duration) in Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }
    return (seconds(written), seconds(delivered))
}

/// Counts arrivals down to zero; `wait()` returns once every expected arrival happened.
private actor ObserverCountdown {
    private var remaining: Int
    private var waiter: CheckedContinuation<Void, Never>?

    init(_ count: Int) { remaining = count }

    nonisolated func arrive() { Task { await self.decrement() } }

    private func decrement() {
        remaining -= 1
        if remaining == 0 { waiter?.resume(); waiter = nil }
    }

    func wait() async {
        if remaining <= 0 { return }
        await withCheckedContinuation { waiter = $0 }
    }
}

private struct ObserverBenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

/// The report, set once from the benchmark's task and read after its semaphore.
private final class ObserverOutcome: @unchecked Sendable {
    // @unchecked: written once before `done.signal()`, read after `done.wait()`.
    private var value: Result<[String], any Error> = .success([])
    func set(_ newValue: Result<[String], any Error>) { value = newValue }
    func get() -> Result<[String], any Error> { value }
}
