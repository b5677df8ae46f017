import Foundation

// persistance-bench: Persistance against the raw SQLite C API and GRDB, in one process.
// See Benchmarks/README.md.

if CommandLine.arguments.dropFirst().first == "documents" {
    exit(runDocumentLoopBenchmarkUnderLoads(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "observers" {
    exit(runObserverBenchmark(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "relations" {
    exit(runRelationsBenchmark(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.dropFirst().first == "eager" {
    exit(runEagerBenchmark(Array(CommandLine.arguments.dropFirst(2))))
}

let options: Options
do {
    switch try Options.parse(Array(CommandLine.arguments.dropFirst())) {
    case .run(let parsed):
        options = parsed
    case .help:
        print(Options.usage)
        exit(0)
    case .list:
        print("workloads: " + Workload.all(readerCounts: [1, 2, 4]).map(\.name).joined(separator: ", "))
        print("contenders: " + allContenders(ContenderSettings(synchronous: .normal)).map(\.name).joined(separator: ", "))
        exit(0)
    }
} catch {
    FileHandle.standardError.write(Data("persistance-bench: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
}

fixAllocatorThresholds()

var effectiveOptions = options
if effectiveOptions.only == nil, isEncryptionAvailable {
    // The SQLCipher build exists for the encrypted workloads; the plain ones stay available with --only.
    effectiveOptions.only = ["insert-encrypted", "fetch-encrypted"]
}
let backend = sqlcipherVersion.map { "SQLCipher \($0), SQLite" } ?? "SQLite"

let directory: URL
let ownsDirectory = effectiveOptions.directory == nil
if let path = effectiveOptions.directory {
    directory = URL(fileURLWithPath: path, isDirectory: true)
} else {
    directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("persistance-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
}

do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if ownsDirectory { try? FileManager.default.removeItem(at: directory) } }
    // Every contender runs with Persistance's default durability, set explicitly on the others.
    let synchronous = try persistanceDefaultSynchronous(directory: directory)
    let spinWait = effectiveOptions.spinWaitMicroseconds.map { Duration.microseconds($0) }
    let contenders = allContenders(ContenderSettings(synchronous: synchronous, spinWait: spinWait))
        .filter { effectiveOptions.selects(contender: $0.name) }
    log("persistance-bench: \(effectiveOptions.rows) rows, \(backend) \(sqliteVersion), synchronous = \(synchronous), contenders: \(contenders.map(\.name).joined(separator: ", "))")
    var reports: [Report] = []
    for factor in effectiveOptions.loadFactors {
        let report = try BackgroundLoad.with(factor: factor) { load in
            if factor > 0 || effectiveOptions.loadFactors.count > 1 { log("== \(load.label)") }
            // Each pass seeds its own databases.
            let directory = effectiveOptions.loadFactors.count > 1 ? directory.appendingPathComponent("load-\(factor)") : directory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let startLoad = loadAverage()
            let results: [Workload: [String: Samples]]
            let synchronousLevels: [String: Synchronous]
            if effectiveOptions.runs > 1 {
                let runs = SeparateRuns(options: effectiveOptions, arguments: Array(CommandLine.arguments.dropFirst()), directory: directory)
                (results, synchronousLevels) = try runs.run()
            } else {
                let runner = Runner(options: effectiveOptions, contenders: contenders, directory: directory, synchronous: synchronous)
                try runner.run()
                (results, synchronousLevels) = (runner.results, runner.synchronousLevels)
                if let samplesPath = effectiveOptions.samplesPath {
                    try RunSamples(results: results, synchronousLevels: synchronousLevels).write(to: samplesPath)
                }
            }
            // Read once the run is over, so that `profile.sh` may count them while the clock runs.
            let instructions = try effectiveOptions.instructionsPath.map(InstructionCounts.init(contentsOf:))
            return Report(
                options: effectiveOptions, results: results, contenderOrder: contenders.map(\.name),
                engine: sqliteVersion, backend: backend, synchronousLevels: synchronousLevels,
                instructions: instructions, startLoad: startLoad, endLoad: loadAverage(),
                backgroundLoad: effectiveOptions.loadFactors == [0] ? nil : (factor, load.threadCount))
        }
        reports.append(report)
    }
    print(reports.map(\.text).joined(separator: "\n\n"))
    let comparison = reports.count > 1 ? LoadComparison(reports: reports, contenderOrder: contenders.map(\.name)) : nil
    if let comparison {
        print("")
        print(comparison.text)
    }
    if let jsonPath = effectiveOptions.jsonPath {
        try (reports.count == 1 ? reports[0].json() : LoadComparison.json(reports)).write(to: URL(fileURLWithPath: jsonPath))
        log("wrote \(jsonPath)")
    }
    if ProcessInfo.processInfo.environment["PERSISTANCE_BENCH_MARKDOWN"] != nil {
        for report in reports {
            print("")
            print(report.markdown)
        }
        if let comparison {
            print("")
            print(comparison.markdown)
        }
    }
} catch {
    FileHandle.standardError.write(Data("persistance-bench: \(error)\n".utf8))
    exit(1)
}
