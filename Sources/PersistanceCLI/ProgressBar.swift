import Foundation

/// Progress of long work on standard error: a bar redrawn in place on a terminal, a plain
/// line per tenth otherwise (logs and pipes get no control characters).
struct ProgressBar {
    let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastTenth = -1

    init(label: String) {
        self.label = label
    }

    /// Shows `done` of `total`.
    mutating func update(done: Int, total: Int) {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        if isTerminal {
            let filled = Int(fraction * 30)
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
            write("\r\(label) [\(bar)] \(Int(fraction * 100))% (\(done)/\(total) pages)")
        } else {
            let tenth = Int(fraction * 10)
            guard tenth != lastTenth else { return }
            lastTenth = tenth
            write("\(label): \(done)/\(total) pages (\(tenth * 10)%)\n")
        }
    }

    /// Ends the bar's line on a terminal.
    func finish() {
        if isTerminal { write("\n") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
