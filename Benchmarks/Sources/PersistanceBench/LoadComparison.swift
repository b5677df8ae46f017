import Foundation

/// The runs of one `--load` list side by side: each contender's median time per operation
/// under every background load, its slowdown against the idle run, and the targets that
/// hold under load.
struct LoadComparison {
    /// One report per load, in the order of `--load`.
    let reports: [Report]
    let contenderOrder: [String]

    /// A target under load: `contender`'s median time on `workload` at most `other`'s.
    struct Target {
        let title: String
        let workload: Workload
        let contender: String
        let other: String
    }

    static let targets = [
        Target(title: "one-row write txn (writeSync) ≤ GRDB write", workload: .writeTransaction(.sync), contender: "persistance", other: "grdb"),
        Target(title: "one-row write txn (await) ≤ GRDB await write", workload: .writeTransaction(.async), contender: "persistance", other: "grdb"),
        Target(title: "async one-row lookup ≤ GRDB await read", workload: .lookupTransaction(.async), contender: "persistance", other: "grdb"),
    ]

    private var idle: Report? { reports.first { $0.backgroundLoad?.factor == 0 } }

    private var workloads: [Workload] {
        Set(reports.flatMap(\.results.keys)).sorted()
    }

    /// Microseconds per operation from a median in operations per second.
    private static func microseconds(_ opsPerSecond: Double?) -> Double? {
        opsPerSecond.flatMap { $0 > 0 ? 1e6 / $0 : nil }
    }

    private static func format(_ microseconds: Double) -> String {
        microseconds < 10 ? String(format: "%.3f", microseconds) : microseconds < 1000 ? String(format: "%.1f", microseconds) : formatNumber(microseconds)
    }

    private func loadName(_ report: Report) -> String {
        let factor = report.backgroundLoad?.factor ?? 0
        return factor == 0 ? "idle" : "load ×\(factor)"
    }

    /// The table's rows: workload, contender, then per load the time and (loaded) × idle.
    private var rows: (header: [String], rows: [[String]]) {
        var header = ["workload", "contender"]
        for report in reports {
            header.append("\(loadName(report)) µs/op")
            if report.backgroundLoad?.factor != 0, idle != nil { header.append("× idle") }
        }
        var rows: [[String]] = []
        for workload in workloads {
            for contender in contenderOrder where reports.contains(where: { $0.results[workload]?[contender] != nil }) {
                var row = [workload.name, contender]
                let idleTime = Self.microseconds(idle?.median(workload, contender))
                for report in reports {
                    let time = Self.microseconds(report.median(workload, contender))
                    row.append(time.map(Self.format) ?? "—")
                    if report.backgroundLoad?.factor != 0, idle != nil {
                        row.append(time.flatMap { time in idleTime.map { String(format: "%.2f", time / $0) } } ?? "—")
                    }
                }
                rows.append(row)
            }
        }
        return (header, rows)
    }

    private func verdicts() -> [String] {
        reports.filter { ($0.backgroundLoad?.factor ?? 0) > 0 }.flatMap { report in
            Self.targets.map { target in
                let title = "\(loadName(report)): \(target.title)".padding(toLength: 56, withPad: " ", startingAt: 0)
                guard let time = Self.microseconds(report.median(target.workload, target.contender)),
                      let other = Self.microseconds(report.median(target.workload, target.other))
                else { return "  \(title) not measured" }
                let verdict = time <= other ? "met" : "MISSED"
                return "  \(title) \(Self.format(time)) µs against \(Self.format(other)) µs: \(verdict)"
            }
        }
    }

    var text: String {
        var lines = ["under load: median time per operation (µs) of each run above; × idle = that time over the idle run's"]
        let (header, rows) = rows
        lines += Report.render(header: header, rows: rows, rightAligned: Set(2..<header.count))
        lines.append("")
        lines.append("targets under load (medians of the same run):")
        lines += verdicts()
        return lines.joined(separator: "\n")
    }

    var markdown: String {
        let (header, rows) = rows
        var lines = ["| " + header.joined(separator: " | ") + " |"]
        lines.append("|" + header.indices.map { $0 < 2 ? "---" : "---:" }.joined(separator: "|") + "|")
        lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n")
    }

    /// The JSON of a run under several loads: one report per load, in order.
    static func json(_ reports: [Report]) throws -> Data {
        struct Loads: Encodable {
            let loads: [Report.JSONReport]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Loads(loads: reports.map(\.jsonReport)))
    }
}
