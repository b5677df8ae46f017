import Foundation
import Synchronization

// persistance-pg-bench: the PostgreSQL workloads for Persistance, raw postgres-nio and Fluent.
// The entry point is synchronous (the run blocks on a task), so that valgrind can run it.

/// Runs `body` in a task and waits for it.
func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let outcome = Mutex<Result<Void, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<Void, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    try outcome.withLock { $0! }.get()
}

/// The load averages of the last 1, 5 and 15 minutes.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
}

func runBenchmark(_ options: Options) async throws {
    let server = try ServerAddress(url: options.url!)
    let database = try await BenchDatabase.create(options.database, on: server)
    let contenders = try await ContenderRegistry.open(
        options.contenders ?? ContenderRegistry.names, on: database.address, connections: options.connections)
    let workloads = Workload.selected(by: options)
    let loadAtStart = loadAverage()
    let started = Date()
    let results = try await Runner(options: options, database: database, contenders: contenders).run(workloads)
    let header = [
        "persistance-pg-bench \(started.formatted(.iso8601)): \(options.rows) rows, \(options.lookups) lookups, "
            + "\(options.iterations) iterations after \(options.warmup) warm-up, pools of \(options.connections) connections",
        "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, PostgreSQL \(try await database.serverVersion()) "
            + "on \(database.address.host), load average \(loadAtStart) at start, \(loadAverage()) at end",
        "times: one measured run of the workload (all its operations); throughput at the median time; "
            + "cpu: this process's CPU time (every thread) per operation, at the median",
    ]
    for contender in contenders { await contender.close() }
    try await database.drop(from: server)
    print(Report(options: options, workloads: workloads, contenders: contenders.map(\.name),
                 results: results, header: header).text)
}

do {
    let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
    try runBlocking { try await runBenchmark(options) }
} catch {
    log("persistance-pg-bench: \(String(reflecting: error))")
    exit(1)
}
