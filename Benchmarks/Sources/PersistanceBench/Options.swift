import Foundation

/// The command line of `persistance-bench`, parsed by hand (no argument-parser dependency,
/// to keep the benchmark's clean build short).
struct Options: Sendable {
    /// Rows inserted and fetched by the bulk workloads.
    var rows = 100_000
    /// Measured repetitions of every workload and contender; the report gives min, median and max.
    var iterations = 5
    /// Separate processes that each run every workload; their samples are pooled.
    var runs = 1
    /// Where a run writes its samples for the process that started it (`--runs`).
    var samplesPath: String?
    /// Unmeasured repetitions run first, to warm caches and the page cache.
    var warmup = 1
    /// Single-row operations per repetition of the fetch-by-id, query, txn-lookup and
    /// txn-empty-read workloads.
    var lookups = 10_000
    /// One-row write transactions per repetition of the txn-write workloads.
    var transactions = 1_000
    /// How long the readers of one concurrent repetition keep reading, in seconds.
    var concurrentSeconds = 1.0
    /// Rows the concurrent writer inserts per transaction.
    var writerBatch = 100
    /// The writer's pause between two transactions, in milliseconds.
    var writerPauseMilliseconds = 10
    /// Reader counts of the concurrent workload.
    var readerCounts = [1, 2, 4]
    /// The encryption key of the encrypted workloads (SQLCipher build).
    var key = "persistance-bench-key"
    /// Workloads to run (names or name prefixes); nil runs all.
    var only: [String]?
    /// Contenders to run; nil runs all.
    var contenders: [String]?
    /// Where to write the JSON report.
    var jsonPath: String?
    /// Instructions per operation measured by `profile.sh`, shown beside the times.
    var instructionsPath: String?
    /// Where the temporary databases go; a fresh folder inside the system's temporary directory by default.
    var directory: String?
    /// Persistance's `spinWait` in microseconds; nil keeps the library's default.
    var spinWaitMicroseconds: Int?
    /// Background loads to run everything under, one after another, in busy threads per
    /// core (`BackgroundLoad`); 0 is the idle machine.
    var loadFactors = [0]

    static let usage = """
        USAGE: persistance-bench [options]

          --rows N              rows per bulk workload (default 100000)
          --iterations K        measured repetitions; min, median and max are reported (default 5)
          --warmup W            unmeasured repetitions first (default 1)
          --runs R              run everything in R fresh processes, one after another, and pool
                                their samples (default 1): each process lays out its memory and
                                files anew, which moves some timings more than the iterations do
          --lookups L           operations per repetition of fetch-by-id, query, txn-lookup*
                                and txn-empty-read* (default 10000)
          --transactions T      one-row write transactions per repetition of txn-write* (default 1000)
          --concurrent-seconds S  reading time of one concurrent repetition (default 1.0)
          --writer-batch B      rows per transaction of the concurrent writer (default 100)
          --writer-pause-ms P   writer pause between transactions (default 10)
          --readers 1,2,4       reader counts of the concurrent workload (default 1,2,4)
          --only a,b            run only these workloads (names or prefixes, e.g. insert,fetch-all,concurrent)
          --contenders a,b      run only these contenders (see --list)
          --json PATH           also write the results as JSON
          --instructions PATH   instructions per operation from profile.sh, shown beside the times
          --directory PATH      where to create the temporary databases (default: a new folder in $TMPDIR)
          --samples-out PATH    write this run's samples as JSON (what --runs reads back)
          --spin-wait-us U      Persistance's spinWait in microseconds (default: the library's,
                                50): profile.sh scales it by valgrind's slowdown, so that under
                                callgrind the executor takes the way it takes natively
          --load 0,1,2          run everything once per background load, one after another: 0 is
                                the idle machine, F keeps F × cores busy threads spinning meanwhile
                                (default 0); the report then compares each contender's times
          --list                list workloads and contenders of this build, then exit
          -h, --help            this help
        """

    enum ParseResult {
        case run(Options)
        case list
        case help
    }

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws -> ParseResult {
        var options = Options()
        var remaining = arguments[...]

        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return value
        }
        func integer(for flag: String, minimum: Int) throws -> Int {
            let text = try value(for: flag)
            guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= minimum else {
                throw UsageError(description: "\(flag) needs an integer ≥ \(minimum), got '\(text)'")
            }
            return number
        }
        func list(for flag: String) throws -> [String] {
            let items = try value(for: flag).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !items.isEmpty, !items.contains(where: \.isEmpty) else {
                throw UsageError(description: "\(flag) needs a comma-separated list")
            }
            return items
        }

        while let argument = remaining.popFirst() {
            // Accept --flag=value as well as --flag value.
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                remaining.insert(contentsOf: [String(argument[..<equals]), String(argument[argument.index(after: equals)...])], at: remaining.startIndex)
                continue
            }
            switch argument {
            case "--rows": options.rows = try integer(for: argument, minimum: 2)
            case "--iterations": options.iterations = try integer(for: argument, minimum: 1)
            case "--warmup": options.warmup = try integer(for: argument, minimum: 0)
            case "--runs": options.runs = try integer(for: argument, minimum: 1)
            case "--samples-out": options.samplesPath = try value(for: argument)
            case "--lookups": options.lookups = try integer(for: argument, minimum: 1)
            case "--transactions": options.transactions = try integer(for: argument, minimum: 1)
            case "--concurrent-seconds":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError(description: "--concurrent-seconds needs a positive number, got '\(text)'")
                }
                options.concurrentSeconds = seconds
            case "--writer-batch": options.writerBatch = try integer(for: argument, minimum: 1)
            case "--writer-pause-ms": options.writerPauseMilliseconds = try integer(for: argument, minimum: 0)
            case "--readers":
                options.readerCounts = try list(for: argument).map {
                    guard let count = Int($0), count >= 1 else {
                        throw UsageError(description: "--readers needs positive integers, got '\($0)'")
                    }
                    return count
                }
            case "--key": options.key = try value(for: argument)
            case "--only": options.only = try list(for: argument)
            case "--contenders": options.contenders = try list(for: argument)
            case "--json": options.jsonPath = try value(for: argument)
            case "--instructions": options.instructionsPath = try value(for: argument)
            case "--directory": options.directory = try value(for: argument)
            case "--spin-wait-us": options.spinWaitMicroseconds = try integer(for: argument, minimum: 0)
            case "--load": options.loadFactors = try loadFactors(try list(for: argument))
            case "--list": return .list
            case "-h", "--help": return .help
            default: throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
        return .run(options)
    }

    /// The factors of `--load`: distinct integers from 0 to 8.
    static func loadFactors(_ items: [String]) throws -> [Int] {
        let factors = try items.map { item in
            guard let factor = Int(item), (0...8).contains(factor) else {
                throw UsageError(description: "--load needs integers from 0 to 8 (busy threads per core), got '\(item)'")
            }
            return factor
        }
        guard Set(factors).count == factors.count else { throw UsageError(description: "--load lists a factor twice") }
        return factors
    }

    /// Whether the workload named `name` was selected by `--only`.
    func selects(workload name: String) -> Bool {
        guard let only else { return true }
        return only.contains { name == $0 || name.hasPrefix($0) }
    }

    /// Whether the contender named `name` was selected by `--contenders`.
    func selects(contender name: String) -> Bool {
        contenders?.contains(name) ?? true
    }
}
