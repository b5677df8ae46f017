import Foundation

// persistance-bench: Persistance against the raw SQLite C API and GRDB, in one process.
// See Benchmarks/README.md.

if CommandLine.arguments.dropFirst().first == "documents" {
    exit(runDocumentLoopBenchmark(runs: CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 5))
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
        print("workloads: " + Runner.workloads(readerCounts: [1, 2, 4]).map(\.name).joined(separator: ", "))
        print("contenders: " + allContenders().map(\.name).joined(separator: ", "))
        exit(0)
    }
} catch {
    FileHandle.standardError.write(Data("persistance-bench: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
}

/// Every contender of this build, in report order.
func allContenders() -> [any Contender] {
    var contenders: [any Contender] = [RawCContender()]
    #if SystemSQLite
    contenders.append(GRDBRecordContender())
    contenders.append(GRDBCodableContender())
    #endif
    contenders += persistanceContenders()
    return contenders
}

var effectiveOptions = options
if effectiveOptions.only == nil, isEncryptionAvailable {
    // The SQLCipher build exists for the encrypted workloads; the plain ones stay available with --only.
    effectiveOptions.only = ["insert-encrypted", "fetch-encrypted"]
}
let contenders = allContenders().filter { effectiveOptions.selects(contender: $0.name) }
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
    let startLoad = loadAverage()
    log("persistance-bench: \(effectiveOptions.rows) rows, \(backend) \(sqliteVersion), contenders: \(contenders.map(\.name).joined(separator: ", "))")
    let runner = Runner(options: effectiveOptions, contenders: contenders, directory: directory)
    try runner.run()
    let report = Report(
        options: effectiveOptions, results: runner.results, contenderOrder: contenders.map(\.name),
        engine: sqliteVersion, backend: backend, startLoad: startLoad, endLoad: loadAverage())
    print(report.text)
    if let jsonPath = effectiveOptions.jsonPath {
        try report.json().write(to: URL(fileURLWithPath: jsonPath))
        log("wrote \(jsonPath)")
    }
    if ProcessInfo.processInfo.environment["PERSISTANCE_BENCH_MARKDOWN"] != nil {
        print("")
        print(report.markdown)
    }
} catch {
    FileHandle.standardError.write(Data("persistance-bench: \(error)\n".utf8))
    exit(1)
}
