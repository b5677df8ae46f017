import Foundation

/// The samples of one contender on one workload.
struct Samples {
    var elapsed: [Duration] = []
    var cpu: [Duration] = []
}

/// Runs every selected workload: warm-up rounds, then measured rounds, each round running every
/// contender once, so that a busy phase of the machine falls on all of them. A run right after
/// Fluent's is slower (fetch-all by a fifth to a half, whoever runs it, even after a pause), so
/// the order matters: see ``orders(of:)``. Every result is checked after the clock stops; a
/// wrong one stops the run.
struct Runner {
    let options: Options
    let database: BenchDatabase
    let contenders: [any Contender]

    private var stored: [BenchItem] { BenchItem.stored(count: options.rows) }

    /// The keys looked up: the same pseudo-random ids, in the same order, for every contender.
    private var keys: [Int64] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<options.lookups).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64((state >> 33) % UInt64(options.rows)) + 1
        }
    }

    func run(_ workloads: [Workload]) async throws -> [Workload: [String: Samples]] {
        var results: [Workload: [String: Samples]] = [:]
        for workload in workloads {
            results[workload] = try await run(workload)
        }
        return results
    }

    private func run(_ workload: Workload) async throws -> [String: Samples] {
        let dataset = BenchItem.dataset(count: options.rows)
        let stored = stored
        let keys = keys
        let expected = switch workload {
        case .insert, .fetchAll: Checksum(stored)
        case .lookups: Checksum(keys.map { stored[Int($0) - 1] })
        }
        if workload != .insert { try await database.fill(with: stored) }
        var samples: [String: Samples] = [:]
        let rounds = options.warmup + options.iterations
        let orders = Self.orders(of: contenders.count)
        for round in 0..<rounds {
            for index in orders[round % orders.count] {
                let contender = contenders[index]
                if workload == .insert { try await database.empty() }
                let cpuBefore = ProcessClock.cpuTime()
                let measurement = switch workload {
                case .insert: try await contender.measureInsert(dataset)
                case .fetchAll: try await contender.measureFetchAll()
                case .lookups(let tasks): try await contender.measureLookups(keys, tasks: tasks)
                }
                let cpu = ProcessClock.cpuTime() - cpuBefore
                try check(measurement.checksum, expected, contender, workload)
                if workload == .insert { try check(try await database.checksum(), expected, contender, workload) }
                let phase = round < options.warmup ? "warm-up" : "round \(round - options.warmup + 1)"
                log("\(workload.name) \(phase) \(contender.name): \(milliseconds(measurement.elapsed)) ms")
                guard round >= options.warmup else { continue }
                samples[contender.name, default: Samples()].elapsed.append(measurement.elapsed)
                samples[contender.name, default: Samples()].cpu.append(cpu)
            }
        }
        return samples
    }

    /// The orders of the rounds, taken in turn: for `count` contenders, round `step` (1 to
    /// `count - 1`) runs contender `i × step mod count` `i`-th. When `count` is prime (2 or 3,
    /// every run of this benchmark), each contender runs right after each other one exactly once
    /// in those rounds, the step from one round to the next included.
    static func orders(of count: Int) -> [[Int]] {
        guard count > 1 else { return [Array(0..<count)] }
        return (1..<count).map { step in (0..<count).map { $0 * step % count } }
    }

    private func check(_ checksum: Checksum, _ expected: Checksum, _ contender: any Contender, _ workload: Workload) throws {
        guard checksum == expected else {
            throw BenchError("\(contender.name) \(workload.name): got \(checksum), expected \(expected)")
        }
    }
}

/// Progress, on standard error.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func milliseconds(_ duration: Duration) -> String {
    String(format: "%.2f", duration / .milliseconds(1))
}
