import Foundation

/// The report of a run: per workload and contender, the median, min and max time of one
/// measured run, the throughput at the median, the client's CPU time per operation, and the
/// median throughput over raw postgres-nio's and Fluent's; then the targets.
struct Report {
    let options: Options
    let workloads: [Workload]
    let contenders: [String]
    let results: [Workload: [String: Samples]]
    let header: [String]

    /// Persistance's targets: at least this fraction of raw postgres-nio's throughput, and ahead of Fluent.
    static let rawTarget = 0.90

    var text: String {
        var lines = header
        lines.append("")
        for workload in workloads {
            lines.append("\(workload.name): \(count(of: workload)) \(workload.operation)s, \(description(of: workload))")
            lines.append(row("contender", "median ms", "min ms", "max ms", "\(workload.operation)s/s", "cpu µs/op",
                             "× raw", "× fluent"))
            for contender in contenders {
                guard let samples = results[workload]?[contender] else { continue }
                let operations = Double(count(of: workload))
                let cpu = median(samples.cpu) / .microseconds(1) / operations
                lines.append(row(
                    contender,
                    milliseconds(median(samples.elapsed)),
                    milliseconds(samples.elapsed.min()!),
                    milliseconds(samples.elapsed.max()!),
                    String(format: "%.0f", throughput(workload, contender)!),
                    String(format: "%.1f", cpu),
                    ratio(workload, contender, over: "raw"),
                    ratio(workload, contender, over: "fluent")))
            }
            lines.append("")
        }
        lines += targets
        return lines.joined(separator: "\n")
    }

    /// Whether Persistance met its targets on each workload (when it and the others ran).
    private var targets: [String] {
        guard contenders.contains("persistance") else { return [] }
        var lines = ["targets: persistance ≥ \(Self.rawTarget) × raw's throughput, and > fluent's"]
        for workload in workloads {
            guard let persistance = throughput(workload, "persistance") else { continue }
            var verdicts: [String] = []
            if let raw = throughput(workload, "raw") {
                let ratio = persistance / raw
                verdicts.append(String(format: "%.2f × raw", ratio) + (ratio >= Self.rawTarget ? " (met)" : " (MISSED)"))
            }
            if let fluent = throughput(workload, "fluent") {
                let ratio = persistance / fluent
                verdicts.append(String(format: "%.2f × fluent", ratio) + (ratio > 1 ? " (met)" : " (MISSED)"))
            }
            lines.append("  \(workload.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(verdicts.joined(separator: ", "))")
        }
        return lines
    }

    private func count(of workload: Workload) -> Int {
        switch workload {
        case .insert, .fetchAll: options.rows
        case .lookups: options.lookups
        }
    }

    private func description(of workload: Workload) -> String {
        switch workload {
        case .insert: "one INSERT … RETURNING id each, in one read-write transaction"
        case .fetchAll: "every row as records, in one read-only transaction"
        case .lookups(let tasks):
            tasks == 1 ? "by primary key, in one read-only transaction"
                : "by primary key, from \(tasks) concurrent tasks, each its share in its own read-only transaction"
        }
    }

    /// Operations per second at the median time.
    private func throughput(_ workload: Workload, _ contender: String) -> Double? {
        guard let samples = results[workload]?[contender] else { return nil }
        return Double(count(of: workload)) / (median(samples.elapsed) / .seconds(1))
    }

    private func ratio(_ workload: Workload, _ contender: String, over other: String) -> String {
        guard let mine = throughput(workload, contender), let theirs = throughput(workload, other) else { return "-" }
        return String(format: "%.2f", mine / theirs)
    }

    private func row(_ columns: String...) -> String {
        let widths = [17, 10, 9, 9, 11, 10, 7, 9]
        return "  " + zip(columns, widths).enumerated().map { index, pair in
            let (text, width) = pair
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return index == 0 ? text + padding : padding + text
        }.joined(separator: " ")
    }
}

/// The median of some durations (the mean of the middle two for an even count).
func median(_ values: [Duration]) -> Duration {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
