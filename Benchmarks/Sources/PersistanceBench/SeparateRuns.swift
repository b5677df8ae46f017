import Foundation

/// The samples of one run, as a run started by `--runs` hands them to the process that started it.
struct RunSamples: Codable {
    struct Entry: Codable {
        let workload: String
        let contender: String
        let opsPerSecond: [Double]
    }

    /// The `synchronous` level each contender's write connection reported.
    let synchronous: [String: Int32]
    let entries: [Entry]

    init(results: [Workload: [String: Samples]], synchronousLevels: [String: Synchronous]) {
        synchronous = synchronousLevels.mapValues(\.rawValue)
        entries = results.values.flatMap(\.values).map {
            Entry(workload: $0.workload.name, contender: $0.contender, opsPerSecond: $0.opsPerSecond)
        }
    }

    func write(to path: String) throws {
        try JSONEncoder().encode(self).write(to: URL(fileURLWithPath: path))
    }
}

/// Runs the benchmark `options.runs` times, one fresh process of this program after another,
/// and pools their samples: the median, min and max are then taken over every iteration of
/// every run. Each process allocates its memory and creates its databases anew, and on a
/// shared machine that moves some workloads' timings (fetch-all most) by more than the
/// iterations of one process differ; pooling keeps one lucky or unlucky layout from being
/// published as the result.
struct SeparateRuns {
    let options: Options
    /// This process's arguments, passed on to each run without `--runs`, `--json`, `--samples-out`
    /// and `--load` (this process keeps the background load running while its runs run).
    let arguments: [String]
    let directory: URL

    func run() throws -> (results: [Workload: [String: Samples]], synchronousLevels: [String: Synchronous]) {
        var results: [Workload: [String: Samples]] = [:]
        var levels: [String: Synchronous] = [:]
        // The concurrent workloads also report their writer's throughput, under a workload of its own.
        let workloads = Workload.all(readerCounts: options.readerCounts)
            + options.readerCounts.map { Workload.concurrentWrite(readers: $0) }
        for number in 1...options.runs {
            log("run \(number) of \(options.runs)")
            let samples = try runOnce(number)
            for (contender, rawLevel) in samples.synchronous {
                let level = try Synchronous(readBack: Int(rawLevel))
                if let known = levels[contender], known != level {
                    throw BenchError("\(contender) ran with synchronous = \(known) in one run and \(level) in another")
                }
                levels[contender] = level
            }
            for entry in samples.entries {
                guard let workload = workloads.first(where: { $0.name == entry.workload }) else {
                    throw BenchError("run \(number) reported an unknown workload '\(entry.workload)'")
                }
                results[workload, default: [:]][entry.contender, default: Samples(workload: workload, contender: entry.contender)]
                    .opsPerSecond += entry.opsPerSecond
            }
        }
        // Every run measures the same workloads and contenders, so each pooled set holds
        // the same number of samples; anything else would weigh one run more than another.
        let expected = options.runs * options.iterations
        for samples in results.values.flatMap(\.values) where samples.opsPerSecond.count != expected {
            throw BenchError(
                "\(samples.workload.name) \(samples.contender): \(samples.opsPerSecond.count) samples pooled, not \(expected)")
        }
        return (results, levels)
    }

    private func runOnce(_ number: Int) throws -> RunSamples {
        let samplesPath = directory.appendingPathComponent("run-\(number).json").path
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = Self.passedOn(arguments) + ["--samples-out", samplesPath]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError("run \(number) failed (status \(process.terminationStatus)); its errors are above")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: samplesPath))
        return try JSONDecoder().decode(RunSamples.self, from: data)
    }

    /// This program's executable.
    private static var executable: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// `arguments` without the options that only the starting process acts on.
    static func passedOn(_ arguments: [String]) -> [String] {
        let dropped: Set = ["--runs", "--json", "--samples-out", "--load"]
        var kept: [String] = []
        var skipsValue = false
        for argument in arguments {
            if skipsValue {
                skipsValue = false
                continue
            }
            let flag = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard dropped.contains(flag) else {
                kept.append(argument)
                continue
            }
            skipsValue = !argument.contains("=")
        }
        return kept
    }
}
