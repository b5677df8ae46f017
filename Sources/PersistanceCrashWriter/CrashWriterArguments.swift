/// The command line of the crash writer: a mode, a database path, keys and a cycle limit.
struct CrashWriterArguments {
    /// What the writer does in its loop.
    enum Mode: String {
        /// Commits transactions through the executor and reports each item id.
        case commit
        /// Opens the database again and again with the two keys in alternating order, so
        /// each open re-keys the file, and commits one item per open.
        case rotate
        /// Migrates the database up to the latest version, then back down, again and again.
        case migrate
        /// Opens the database once with its keys, which encrypts a plaintext file in place,
        /// reports `opened` and exits.
        case convert
        /// Fills a document collection's write-back cache with a batch, then saves it.
        case documents
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    var mode: Mode
    var path: String
    /// The encryption keys, oldest first (`--key`, repeated).
    var keys: [String] = []
    /// How many cycles to run before exiting normally; nil runs until killed.
    var cycles: Int?

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        guard let modeName = rest.popFirst(), let mode = Mode(rawValue: modeName), let path = rest.popFirst() else {
            throw UsageError(description: "usage: persistance-crash-writer commit|rotate|migrate|convert|documents <path> [--key K]... [--cycles N]")
        }
        self.mode = mode
        self.path = path
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            switch option {
            case "--key": keys.append(value)
            case "--cycles":
                guard let count = Int(value), count >= 0 else { throw UsageError(description: "bad --cycles \(value)") }
                cycles = count
            default: throw UsageError(description: "unknown option \(option)")
            }
        }
        if mode == .rotate, keys.count != 2 {
            throw UsageError(description: "rotate needs exactly two --key options")
        }
        if mode == .convert, keys.isEmpty {
            throw UsageError(description: "convert needs a --key option")
        }
    }

    /// The cycle numbers to run: 0, 1, 2, … up to the limit, or without end.
    var cycleNumbers: any Sequence<Int> {
        if let cycles { return 0..<cycles }
        return 0...
    }
}
