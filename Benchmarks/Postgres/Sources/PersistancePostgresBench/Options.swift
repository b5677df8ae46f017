import Foundation

/// The command line: `persistance-pg-bench [--url URL] [--iterations N] [--only …] [--contenders …] …`.
struct Options {
    /// The server, as a URL; the benchmark creates (and drops) its own database there.
    var url = ProcessInfo.processInfo.environment["PERSISTANCE_POSTGRES_URL"]
    var database = "persistance_pg_bench"
    var rows = 10_000
    var lookups = 2_000
    var tasks = [1, 4, 16]
    var iterations = 6
    var warmup = 1
    var connections = 16
    var workloads: [String]?
    var contenders: [String]?

    static let usage = """
        usage: persistance-pg-bench [options]
          --url URL              the server (default: $PERSISTANCE_POSTGRES_URL), e.g. postgres://postgres@127.0.0.1:5432/postgres
          --database NAME        the database created for the run and dropped after it (default persistance_pg_bench)
          --rows N               rows inserted and fetched (default 10000)
          --lookups N            lookups by primary key per lookup workload (default 2000)
          --tasks LIST           concurrent tasks of the lookup workloads (default 1,4,16)
          --iterations N         measured rounds (default 6; even, so that every order of three contenders is run as often)
          --warmup N             unmeasured rounds first (default 1)
          --connections N        pool size of every contender (default 16)
          --only LIST            workloads or prefixes: insert, fetch-all, lookup, lookup-4tasks, …
          --contenders LIST      raw, fluent, persistance (default: all)
        """

    init(arguments: [String]) throws {
        var arguments = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = arguments.popFirst() else { throw BenchError("\(flag) needs a value\n\(Self.usage)") }
            return value
        }
        func number(_ flag: String) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= 0 else { throw BenchError("\(flag): not a count: \(text)") }
            return number
        }
        func list(_ flag: String) throws -> [String] {
            try value(flag).split(separator: ",").map(String.init)
        }
        while let flag = arguments.popFirst() {
            switch flag {
            case "--url": url = try value(flag)
            case "--database": database = try value(flag)
            case "--rows": rows = try number(flag)
            case "--lookups": lookups = try number(flag)
            case "--tasks": tasks = try list(flag).map { Int($0) ?? 0 }
            case "--iterations": iterations = try number(flag)
            case "--warmup": warmup = try number(flag)
            case "--connections": connections = try number(flag)
            case "--only": workloads = try list(flag)
            case "--contenders": contenders = try list(flag)
            case "--help", "-h": throw BenchError(Self.usage)
            default: throw BenchError("unknown option \(flag)\n\(Self.usage)")
            }
        }
        guard url != nil else { throw BenchError("no server: pass --url or set PERSISTANCE_POSTGRES_URL\n\(Self.usage)") }
        guard rows > 0, lookups > 0, iterations > 0, tasks.allSatisfy({ $0 > 0 }) else {
            throw BenchError("rows, lookups, iterations and tasks must be positive")
        }
        guard connections >= tasks.max() ?? 1 else {
            throw BenchError("--connections \(connections) is less than the most concurrent tasks")
        }
    }
}
