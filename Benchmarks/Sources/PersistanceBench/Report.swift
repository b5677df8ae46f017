import Foundation

/// A performance target of `shared/DESIGN.md`.
struct Target {
    enum Kind {
        /// `contender`'s median on `workload` over raw C's.
        case ratioToRawC(Workload, contender: String)
        /// `contender`'s 2-reader throughput over its 1-reader throughput.
        case readerScaling(contender: String, readers: Int)
    }

    let title: String
    let kind: Kind
    let minimum: Double

    static let all: [Target] = [
        Target(title: "insert, Codable records (table API)", kind: .ratioToRawC(.insert, contender: "persistance"), minimum: 0.60),
        Target(title: "insert, hand-written encoding", kind: .ratioToRawC(.insert, contender: "persistance-fast"), minimum: 0.80),
        Target(title: "fetch all, Codable records", kind: .ratioToRawC(.fetchAll, contender: "persistance"), minimum: 0.50),
        Target(title: "fetch all, hand-written decoding", kind: .ratioToRawC(.fetchAll, contender: "persistance-fast"), minimum: 0.85),
        Target(title: "2 readers vs 1 reader, Codable", kind: .readerScaling(contender: "persistance", readers: 2), minimum: 1.6),
        Target(title: "2 readers vs 1 reader, fast path", kind: .readerScaling(contender: "persistance-fast", readers: 2), minimum: 1.6),
    ]
}

/// Everything the report prints or writes.
struct Report {
    let options: Options
    let results: [Workload: [String: Samples]]
    let contenderOrder: [String]
    let engine: String
    let backend: String
    let startLoad: String?
    let endLoad: String?

    private func median(_ workload: Workload, _ contender: String) -> Double? {
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
        }
    }

    private var orderedSamples: [Samples] {
        results.keys.sorted().flatMap { workload in
            let byContender = results[workload] ?? [:]
            return contenderOrder.compactMap { byContender[$0] }
        }
    }

    // MARK: Text

    var text: String {
        var lines: [String] = []
        lines.append("persistance-bench: \(options.rows) rows, \(backend) \(engine), \(options.iterations) iterations (+\(options.warmup) warm-up), \(options.lookups) lookups")
        lines.append("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(startLoad ?? "?") at start, \(endLoad ?? "?") at end")
        lines.append("ops/s: median, min and max over the iterations; × raw C = median / raw C's median (higher is better)")
        lines.append("")
        let header = ["workload", "contender", "median", "min", "max", "unit", "× raw C"]
        var table: [[String]] = []
        var previous: Workload?
        for samples in orderedSamples {
            if let previous, previous != samples.workload { table.append([]) }
            previous = samples.workload
            table.append([
                samples.workload.name, samples.contender,
                formatNumber(samples.median), formatNumber(samples.min), formatNumber(samples.max),
                samples.workload.unit,
                ratioToRawC(samples.workload, samples.contender).map { String(format: "%.2f", $0) } ?? "",
            ])
        }
        lines += render(header: header, rows: table, rightAligned: [2, 3, 4, 6])

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
        lines.append("targets (shared/DESIGN.md):")
        for target in Target.all {
            let verdict: String
            if let value = value(of: target) {
                verdict = String(format: "%.2f", value) + (value >= target.minimum ? "  met" : "  MISSED")
            } else {
                verdict = "not measured"
            }
            lines.append("  \(target.title.padding(toLength: 40, withPad: " ", startingAt: 0)) ≥ \(String(format: "%.2f", target.minimum)): \(verdict)")
        }
        return lines.joined(separator: "\n")
    }

    private func render(header: [String], rows: [[String]], rightAligned: Set<Int>) -> [String] {
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
        var lines = ["| workload | contender | median | min | unit | × raw C |", "|---|---|---:|---:|---|---:|"]
        for samples in orderedSamples {
            let ratio = ratioToRawC(samples.workload, samples.contender).map { String(format: "%.2f", $0) } ?? ""
            lines.append("| \(samples.workload.name) | \(samples.contender) | \(formatNumber(samples.median)) | \(formatNumber(samples.min)) | \(samples.workload.unit) | \(ratio) |")
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
        }

        struct TargetEntry: Encodable {
            let target: String
            let minimum: Double
            let value: Double?
            let met: Bool?
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
        let iterations: Int
        let warmup: Int
        let lookups: Int
        let concurrent_seconds: Double
        let writer_batch: Int
        let writer_pause_ms: Int
        let machine: Machine
        let results: [Entry]
        let targets: [TargetEntry]
    }

    func json() throws -> Data {
        let report = JSONReport(
            rows: options.rows, engine: engine, backend: backend,
            iterations: options.iterations, warmup: options.warmup, lookups: options.lookups,
            concurrent_seconds: options.concurrentSeconds, writer_batch: options.writerBatch,
            writer_pause_ms: options.writerPauseMilliseconds,
            machine: .init(
                cores: ProcessInfo.processInfo.activeProcessorCount,
                memory_bytes: ProcessInfo.processInfo.physicalMemory,
                load_average_start: startLoad, load_average_end: endLoad),
            results: orderedSamples.map { samples in
                .init(
                    workload: samples.workload.name, contender: samples.contender, unit: samples.workload.unit,
                    median_ops_per_s: samples.median.rounded(toPlaces: 2), min_ops_per_s: samples.min.rounded(toPlaces: 2),
                    max_ops_per_s: samples.max.rounded(toPlaces: 2),
                    samples_ops_per_s: samples.opsPerSecond.map { $0.rounded(toPlaces: 2) },
                    ratio_to_raw_c: ratioToRawC(samples.workload, samples.contender)?.rounded(toPlaces: 4))
            },
            targets: Target.all.map { target in
                let value = value(of: target)
                return .init(
                    target: target.title, minimum: target.minimum,
                    value: value?.rounded(toPlaces: 4), met: value.map { $0 >= target.minimum })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(report)
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
