import Foundation

/// A performance target of the design, checked against the run's medians or instruction counts.
struct Target {
    enum Kind {
        /// `contender`'s median on `workload` over raw C's (and raw C's instructions over its own).
        case ratioToRawC(Workload, contender: String)
        /// `contender`'s 2-reader throughput over its 1-reader throughput.
        case readerScaling(contender: String, readers: Int)
        /// `contender`'s median on `workload` over `other`'s.
        case ratioToContender(Workload, contender: String, other: String)
        /// `contender`'s instructions per operation on `workload`.
        case instructions(Workload, contender: String)
        /// `contender`'s instructions per operation on `workload` over those on `baseline`.
        case instructionRatio(Workload, baseline: Workload, contender: String)
        /// `contender`'s instructions per operation on `workload` over `baseline`'s.
        case instructionRatioToContender(Workload, contender: String, baseline: String)
    }

    let title: String
    let kind: Kind
    /// The bound; a value must be at least it, or at most it when `isUpperBound`.
    let bound: Double
    var isUpperBound = false

    func isMet(by value: Double) -> Bool {
        isUpperBound ? value <= bound : value >= bound
    }

    static let all: [Target] = [
        Target(title: "insert, Codable records (table API)", kind: .ratioToRawC(.insert, contender: "persistance"), bound: 0.60),
        Target(title: "insert, hand-written encoding", kind: .ratioToRawC(.insert, contender: "persistance-fast"), bound: 0.80),
        Target(title: "fetch all, Codable records", kind: .ratioToRawC(.fetchAll, contender: "persistance"), bound: 0.50),
        Target(title: "fetch all, hand-written decoding", kind: .ratioToRawC(.fetchAll, contender: "persistance-fast"), bound: 0.85),
        Target(title: "insert, @Table records", kind: .ratioToRawC(.insert, contender: "persistance-macro"), bound: 0.85),
        Target(title: "fetch all, @Table records", kind: .ratioToRawC(.fetchAll, contender: "persistance-macro"), bound: 0.90),
        Target(title: "fetch by id, @Table records", kind: .ratioToRawC(.fetchByID, contender: "persistance-macro"), bound: 0.85),
        Target(title: "filtered query, @Table records", kind: .ratioToRawC(.query, contender: "persistance-macro"), bound: 0.85),
        Target(
            title: "typed query over its SQL text (Ir)",
            kind: .instructionRatio(.query, baseline: .querySQL, contender: "persistance-macro"),
            bound: 1.15, isUpperBound: true),
        Target(title: "2 readers vs 1 reader, Codable", kind: .readerScaling(contender: "persistance", readers: 2), bound: 1.6),
        Target(title: "2 readers vs 1 reader, fast path", kind: .readerScaling(contender: "persistance-fast", readers: 2), bound: 1.6),
        Target(
            title: "async read round trip (Ir)", kind: .instructions(.emptyRead(.async), contender: "persistance-fast"),
            bound: 15_000, isUpperBound: true),
        Target(
            title: "async lookup over bare lookup (Ir)",
            kind: .instructionRatio(.lookupTransaction(.async), baseline: .lookupTransaction(.bare), contender: "persistance-fast"),
            bound: 1.6, isUpperBound: true),
        Target(
            title: "async write txn over bare (Ir)",
            kind: .instructionRatio(.writeTransaction(.async), baseline: .writeTransaction(.bare), contender: "persistance-fast"),
            bound: 1.5, isUpperBound: true),
        Target(
            title: "DAO call over cached statement (Ir)",
            kind: .instructionRatioToContender(.dao, contender: "persistance-dao", baseline: "persistance-cached"),
            bound: 1.3, isUpperBound: true),
        Target(
            title: "typed DAO call over cached stmt (Ir)",
            kind: .instructionRatioToContender(.dao, contender: "persistance-dao-typed", baseline: "persistance-cached"),
            bound: 1.3, isUpperBound: true),
        Target(
            title: "async write txn vs GRDB's",
            kind: .ratioToContender(.writeTransaction(.async), contender: "persistance-fast", other: "grdb"), bound: 1.0),
    ]
}

/// Everything the report prints or writes.
struct Report {
    let options: Options
    let results: [Workload: [String: Samples]]
    let contenderOrder: [String]
    let engine: String
    let backend: String
    /// The `synchronous` level each contender's write connection reported.
    let synchronousLevels: [String: Synchronous]
    let instructions: InstructionCounts?
    let startLoad: String?
    let endLoad: String?
    /// The background load the run ran under (`--load`): busy threads per core and in all;
    /// nil when the run asked for none.
    var backgroundLoad: (factor: Int, threads: Int)? = nil

    func median(_ workload: Workload, _ contender: String) -> Double? {
        results[workload]?[contender].map(\.median)
    }

    func ratioToRawC(_ workload: Workload, _ contender: String) -> Double? {
        guard contender != "raw-c", let value = median(workload, contender),
              let raw = median(workload, "raw-c"), raw > 0 else { return nil }
        return value / raw
    }

    func value(of target: Target) -> Double? {
        switch target.kind {
        case .ratioToRawC(let workload, let contender):
            return ratioToRawC(workload, contender)
        case .readerScaling(let contender, let readers):
            guard let many = median(.concurrentRead(readers: readers), contender),
                  let one = median(.concurrentRead(readers: 1), contender), one > 0 else { return nil }
            return many / one
        case .ratioToContender(let workload, let contender, let other):
            guard let value = median(workload, contender), let base = median(workload, other), base > 0 else { return nil }
            return value / base
        case .instructions(let workload, let contender):
            return instructions?.count(workload, contender)
        case .instructionRatio(let workload, let baseline, let contender):
            guard let value = instructions?.count(workload, contender),
                  let base = instructions?.count(baseline, contender), base > 0 else { return nil }
            return value / base
        case .instructionRatioToContender(let workload, let contender, let baseline):
            guard let value = instructions?.count(workload, contender),
                  let base = instructions?.count(workload, baseline), base > 0 else { return nil }
            return value / base
        }
    }

    /// The instruction figure shown beside a time-based target, when there is one.
    func instructionValue(of target: Target) -> Double? {
        guard case .ratioToRawC(let workload, let contender) = target.kind else { return nil }
        return instructions?.ratioToRawC(workload, contender)
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? formatNumber(value) : String(format: "%.2f", value)
    }

    private var synchronousSummary: String {
        let levels = contenderOrder.compactMap { name in synchronousLevels[name].map { "\(name) \($0)" } }
        return levels.joined(separator: ", ")
    }

    /// The columns of the tables: the instruction columns only when instructions were counted.
    private var columnCount: Int { instructions == nil ? 7 : 9 }

    /// The cells of one result line: times, ratio, instructions, instruction ratio.
    private func cells(_ samples: Samples) -> [String] {
        let workload = samples.workload, contender = samples.contender
        let all = [
            workload.name, contender,
            formatNumber(samples.median), formatNumber(samples.min), formatNumber(samples.max),
            workload.unit,
            ratioToRawC(workload, contender).map { String(format: "%.2f", $0) } ?? "",
            instructions?.count(workload, contender).map(formatNumber) ?? "",
            instructions?.ratioToRawC(workload, contender).map { String(format: "%.2f", $0) } ?? "",
        ]
        return Array(all.prefix(columnCount))
    }

    private var orderedSamples: [Samples] {
        results.keys.sorted().flatMap { workload in
            let byContender = results[workload] ?? [:]
            return contenderOrder.compactMap { byContender[$0] }
        }
    }

    // MARK: Text

    /// How many times each workload ran: iterations per process, and processes.
    private var repetitions: String {
        let perRun = "\(options.iterations) iterations (+\(options.warmup) warm-up)"
        return options.runs > 1 ? "\(options.runs) runs in separate processes × \(perRun)" : perRun
    }

    var text: String {
        var lines: [String] = []
        lines.append("persistance-bench: \(options.rows) rows, \(backend) \(engine), \(repetitions), \(options.lookups) lookups")
        lines.append("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(startLoad ?? "?") at start, \(endLoad ?? "?") at end")
        if let backgroundLoad {
            lines.append(backgroundLoad.factor == 0
                ? "background load: none (the idle figures of this run)"
                : "background load ×\(backgroundLoad.factor): \(backgroundLoad.threads) busy threads started by the benchmark, running throughout")
        }
        lines.append("synchronous (read back from each contender's write connection): \(synchronousSummary)")
        lines.append("ops/s: median, min and max over the iterations\(options.runs > 1 ? " of every run" : ""); × raw C = median / raw C's median (higher is better)")
        if let instructions {
            lines.append("Ir/op: callgrind instructions per operation; Ir × raw C = raw C's Ir/op / this Ir/op (higher is better)")
            lines += instructions.notes.map { "  \($0)" }
        }
        lines.append("")
        let header = Array(["workload", "contender", "median", "min", "max", "unit", "× raw C", "Ir/op", "Ir × raw C"].prefix(columnCount))
        var table: [[String]] = []
        var previous: Workload?
        for samples in orderedSamples {
            if let previous, previous != samples.workload { table.append([]) }
            previous = samples.workload
            table.append(cells(samples))
        }
        lines += Self.render(header: header, rows: table, rightAligned: [2, 3, 4, 6, 7, 8])

        // Reader scaling of every contender that ran the concurrent workload.
        let scaling = contenderOrder.compactMap { contender -> String? in
            guard let one = median(.concurrentRead(readers: 1), contender), one > 0 else { return nil }
            let factors = options.readerCounts.filter { $0 > 1 }.compactMap { readers in
                median(.concurrentRead(readers: readers), contender).map { "\(readers)r \(String(format: "%.2f", $0 / one))×" }
            }
            return factors.isEmpty ? nil : "  \(contender): \(factors.joined(separator: ", "))"
        }
        if !scaling.isEmpty {
            lines.append("")
            lines.append("reader scaling (reads/s over 1 reader's):")
            lines += scaling
        }

        lines.append("")
        lines.append("targets (time ratios from the medians; Ir from callgrind):")
        for target in Target.all {
            var verdict: String
            if let value = value(of: target) {
                verdict = format(value) + (target.isMet(by: value) ? "  met" : "  MISSED")
            } else {
                verdict = "not measured"
            }
            if let instructionValue = instructionValue(of: target) {
                verdict += " (Ir \(String(format: "%.2f", instructionValue))\(target.isMet(by: instructionValue) ? " met" : " MISSED"))"
            }
            let bound = (target.isUpperBound ? "≤ " : "≥ ") + format(target.bound)
            lines.append("  \(target.title.padding(toLength: 40, withPad: " ", startingAt: 0)) \(bound): \(verdict)")
        }
        return lines.joined(separator: "\n")
    }

    /// A text table: columns padded to their widest cell, those of `rightAligned` on the right;
    /// an empty row is an empty line.
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int>) -> [String] {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = Swift.max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var lines = [line(header), line(widths.map { String(repeating: "-", count: $0) })]
        for row in rows {
            lines.append(row.isEmpty ? "" : line(row))
        }
        return lines
    }

    // MARK: Markdown (for the README)

    var markdown: String {
        let header = ["workload", "contender", "median", "min", "max", "unit", "× raw C", "Ir/op", "Ir × raw C"].prefix(columnCount)
        let alignment = ["---", "---", "---:", "---:", "---:", "---", "---:", "---:", "---:"].prefix(columnCount)
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + alignment.joined(separator: "|") + "|"]
        for samples in orderedSamples {
            lines.append("| " + cells(samples).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    struct JSONReport: Encodable {
        struct Entry: Encodable {
            let workload: String
            let contender: String
            let unit: String
            let median_ops_per_s: Double
            let min_ops_per_s: Double
            let max_ops_per_s: Double
            let samples_ops_per_s: [Double]
            let ratio_to_raw_c: Double?
            let instructions_per_op: Double?
            let instruction_ratio_to_raw_c: Double?
        }

        struct TargetEntry: Encodable {
            let target: String
            let bound: Double
            let upper_bound: Bool
            let value: Double?
            let met: Bool?
            let instruction_value: Double?
        }

        struct Machine: Encodable {
            let cores: Int
            let memory_bytes: UInt64
            let load_average_start: String?
            let load_average_end: String?
        }

        let rows: Int
        let engine: String
        let backend: String
        let runs: Int
        let iterations: Int
        let warmup: Int
        let lookups: Int
        let transactions: Int
        let synchronous: [String: String]
        let instruction_profile: [String]
        let concurrent_seconds: Double
        let writer_batch: Int
        let writer_pause_ms: Int
        let machine: Machine
        /// Busy threads per core the benchmark ran beside the workloads (`--load`).
        let background_load_factor: Int?
        let background_load_threads: Int?
        let results: [Entry]
        let targets: [TargetEntry]
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(jsonReport)
    }

    var jsonReport: JSONReport {
        JSONReport(
            rows: options.rows, engine: engine, backend: backend,
            runs: options.runs, iterations: options.iterations, warmup: options.warmup, lookups: options.lookups,
            transactions: options.transactions,
            synchronous: synchronousLevels.mapValues(\.description),
            instruction_profile: instructions?.notes ?? [],
            concurrent_seconds: options.concurrentSeconds, writer_batch: options.writerBatch,
            writer_pause_ms: options.writerPauseMilliseconds,
            machine: .init(
                cores: ProcessInfo.processInfo.activeProcessorCount,
                memory_bytes: ProcessInfo.processInfo.physicalMemory,
                load_average_start: startLoad, load_average_end: endLoad),
            background_load_factor: backgroundLoad?.factor, background_load_threads: backgroundLoad?.threads,
            results: orderedSamples.map { samples in
                .init(
                    workload: samples.workload.name, contender: samples.contender, unit: samples.workload.unit,
                    median_ops_per_s: samples.median.rounded(toPlaces: 2), min_ops_per_s: samples.min.rounded(toPlaces: 2),
                    max_ops_per_s: samples.max.rounded(toPlaces: 2),
                    samples_ops_per_s: samples.opsPerSecond.map { $0.rounded(toPlaces: 2) },
                    ratio_to_raw_c: ratioToRawC(samples.workload, samples.contender)?.rounded(toPlaces: 4),
                    instructions_per_op: instructions?.count(samples.workload, samples.contender),
                    instruction_ratio_to_raw_c: instructions?.ratioToRawC(samples.workload, samples.contender)?.rounded(toPlaces: 4))
            },
            targets: Target.all.map { target in
                let value = value(of: target)
                return .init(
                    target: target.title, bound: target.bound, upper_bound: target.isUpperBound,
                    value: value?.rounded(toPlaces: 4), met: value.map(target.isMet(by:)),
                    instruction_value: instructionValue(of: target)?.rounded(toPlaces: 4))
            })
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

/// The 1-, 5- and 15-minute load averages, when the system tells them (Linux).
func loadAverage() -> String? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}
