import Foundation

/// Instructions per operation of each workload and contender, as `profile.sh` writes them:
/// one line per measurement, `workload<TAB>contender<TAB>instructions per operation`
/// (lines starting with `#` are comments). Counted by callgrind, they do not move with the
/// machine's load, unlike the timings they are shown beside.
struct InstructionCounts: Sendable {
    private var perOperation: [String: [String: Double]] = [:]
    /// What the profile was run with (its `#` lines), for the report.
    private(set) var notes: [String] = []

    init(contentsOf path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                notes.append(line.dropFirst().trimmingCharacters(in: .whitespaces))
                continue
            }
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let count = Double(fields[2]) else {
                throw BenchError("\(path): not a workload, contender and count: '\(line)'")
            }
            perOperation[String(fields[0]), default: [:]][String(fields[1])] = count
        }
    }

    /// Instructions per operation of `contender` on `workload`, if profiled.
    func count(_ workload: Workload, _ contender: String) -> Double? {
        perOperation[workload.name]?[contender]
    }

    /// Raw C's count over `contender`'s: the instruction analogue of "× raw C" (higher is better).
    func ratioToRawC(_ workload: Workload, _ contender: String) -> Double? {
        guard contender != "raw-c", let count = count(workload, contender), count > 0,
              let raw = self.count(workload, "raw-c") else { return nil }
        return raw / count
    }
}
