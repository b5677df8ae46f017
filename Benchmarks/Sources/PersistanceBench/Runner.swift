import Foundation

/// The measured samples of one workload and contender: operations per second, one per iteration.
struct Samples {
    let workload: Workload
    let contender: String
    var opsPerSecond: [Double] = []

    var median: Double {
        let sorted = opsPerSecond.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    var min: Double { opsPerSecond.min() ?? 0 }
    var max: Double { opsPerSecond.max() ?? 0 }
}

/// Runs every selected workload for every contender, interleaved: each round runs each
/// contender once (in a rotating order), so slow phases of a noisy machine hit all alike.
final class Runner {
    let options: Options
    let contenders: [any Contender]
    let dataset: Dataset
    let directory: URL
    /// The `synchronous` level every contender must run with.
    let synchronous: Synchronous
    private(set) var results: [Workload: [String: Samples]] = [:]
    /// The level each contender's write connection reported, read back before the run.
    private(set) var synchronousLevels: [String: Synchronous] = [:]

    /// The database every read workload reads (N rows, score index, WAL checkpointed).
    private var readDatabase: URL { directory.appendingPathComponent("read.sqlite") }
    /// The first half of the rows: the upsert workload's starting point.
    private var halfDatabase: URL { directory.appendingPathComponent("half.sqlite") }
    private var encryptedDatabase: URL { directory.appendingPathComponent("read-encrypted.sqlite") }

    init(options: Options, contenders: [any Contender], directory: URL, synchronous: Synchronous) {
        self.options = options
        self.contenders = contenders
        self.directory = directory
        self.synchronous = synchronous
        dataset = Dataset(rows: options.rows, lookups: options.lookups, transactions: options.transactions)
    }

    func run() throws {
        let workloads = Workload.all(readerCounts: options.readerCounts).filter { options.selects(workload: $0.name) }
        try checkSynchronous()
        try prepareDatabases(for: workloads)
        for workload in workloads {
            let runners = contenders.filter { $0.supports(workload) }
            guard !runners.isEmpty else { continue }
            // `profile.sh` reads these lines: one measured region per contender and round.
            log("\(workload.name): \(operations(of: workload)) operations")
            let rounds = options.warmup + options.iterations
            for round in 0..<rounds {
                let isWarmup = round < options.warmup
                // Rotate the order each round.
                for offset in runners.indices {
                    let contender = runners[(offset + round) % runners.count]
                    try runOnce(workload, contender, round: round, record: !isWarmup)
                }
            }
        }
    }

    /// Reads back each contender's `synchronous` level, on a database of its own; a
    /// contender that runs with another level than the others stops the run (its figures
    /// would not be comparable).
    private func checkSynchronous() throws {
        for contender in contenders {
            let path = try freshPath("synchronous \(contender.name)")
            try Seed.create(path: path, rows: [], indexed: false)
            defer { remove(path) }
            let level = try contender.synchronous(path: path)
            guard level == synchronous else {
                throw BenchError("\(contender.name) runs with synchronous = \(level), the run with \(synchronous)")
            }
            synchronousLevels[contender.name] = level
        }
    }

    /// How many operations one repetition of `workload` performs.
    func operations(of workload: Workload) -> Int {
        switch workload {
        case .fetchByID, .lookupTransaction, .emptyRead, .dao: dataset.lookupIDs.count
        case .query, .querySQL: dataset.queryThresholds.count
        case .writeTransaction: dataset.transactionRows.count
        default: dataset.rows.count
        }
    }

    private func prepareDatabases(for workloads: [Workload]) throws {
        let readsPlain = workloads.contains {
            switch $0 {
            case .fetchAll, .fetchCursor, .fetchByID, .query, .querySQL, .lookupTransaction, .emptyRead, .dao, .concurrentRead,
                .concurrentWrite: true
            default: false
            }
        }
        if readsPlain {
            try Seed.create(path: readDatabase.path, rows: dataset.rows, indexed: true)
        }
        if workloads.contains(.upsert) {
            try Seed.create(path: halfDatabase.path, rows: dataset.rows.prefix(dataset.rows.count / 2), indexed: false)
        }
        if workloads.contains(.fetchEncrypted) {
            try Seed.create(path: encryptedDatabase.path, rows: dataset.rows, indexed: false, key: options.key)
        }
    }

    private func runOnce(_ workload: Workload, _ contender: any Contender, round: Int, record: Bool) throws {
        let label = "\(workload.name) \(contender.name) #\(round)"
        let count = dataset.rows.count
        var measured: [(Workload, Double)] = []
        switch workload {
        case .insert, .insertEncrypted:
            let key = workload == .insertEncrypted ? options.key : nil
            let path = try freshPath(label)
            defer { remove(path) }
            let elapsed = try contender.insert(dataset.rows, path: path, key: key)
            try verifyTable(at: path, key: key, equals: Checksum(dataset.rows), label)
            measured = [(workload, Double(count) / elapsed.seconds)]
        case .fetchAll, .fetchEncrypted:
            let key = workload == .fetchEncrypted ? options.key : nil
            let path = (workload == .fetchEncrypted ? encryptedDatabase : readDatabase).path
            let (elapsed, checksum) = try contender.fetchAll(path: path, key: key)
            try expect(checksum, equals: expectedAll, label)
            measured = [(workload, Double(count) / elapsed.seconds)]
        case .fetchCursor:
            let (elapsed, checksum) = try contender.fetchCursor(path: readDatabase.path, rowCount: count)
            try expect(checksum, equals: expectedAll, label)
            measured = [(workload, Double(count) / elapsed.seconds)]
        case .fetchByID:
            let (elapsed, checksum) = try contender.fetchByID(dataset.lookupIDs, path: readDatabase.path)
            try expect(checksum, equals: expectedByID, label)
            measured = [(workload, Double(dataset.lookupIDs.count) / elapsed.seconds)]
        case .lookupTransaction(let access):
            let (elapsed, checksum) = try contender.lookupTransactions(dataset.lookupIDs, path: readDatabase.path, access: access)
            try expect(checksum, equals: expectedByID, label)
            measured = [(workload, Double(dataset.lookupIDs.count) / elapsed.seconds)]
        case .dao:
            let (elapsed, checksum) = try contender.daoLookups(dataset.lookupIDs, path: readDatabase.path)
            try expect(checksum, equals: expectedByID, label)
            measured = [(workload, Double(dataset.lookupIDs.count) / elapsed.seconds)]
        case .emptyRead(let access):
            let elapsed = try contender.emptyReads(count: dataset.lookupIDs.count, path: readDatabase.path, access: access)
            measured = [(workload, Double(dataset.lookupIDs.count) / elapsed.seconds)]
        case .writeTransaction(let access):
            let path = try freshPath(label)
            defer { remove(path) }
            try Seed.create(path: path, rows: [], indexed: false)
            let elapsed = try contender.writeTransactions(dataset.transactionRows, path: path, access: access)
            try verifyTable(at: path, key: nil, equals: Checksum(dataset.transactionRows), label)
            measured = [(workload, Double(dataset.transactionRows.count) / elapsed.seconds)]
        case .query, .querySQL:
            let run = workload == .query ? contender.query : contender.querySQL
            let (elapsed, checksum) = try run(dataset.queryThresholds, readDatabase.path)
            if let expectedQuery { try expect(checksum, equals: expectedQuery, label) }
            measured = [(workload, Double(dataset.queryThresholds.count) / elapsed.seconds)]
        case .upsert:
            let path = try freshPath(label)
            defer { remove(path) }
            try FileManager.default.copyItem(atPath: halfDatabase.path, toPath: path)
            let elapsed = try contender.upsert(dataset.upsertRows, path: path)
            try verifyTable(at: path, key: nil, equals: Checksum(dataset.upsertRows), label)
            measured = [(workload, Double(count) / elapsed.seconds)]
        case .concurrentRead(let readers), .concurrentWrite(let readers):
            let path = try freshPath(label)
            defer { remove(path) }
            try FileManager.default.copyItem(atPath: readDatabase.path, toPath: path)
            let settings = ConcurrentSettings(
                duration: .milliseconds(Int(options.concurrentSeconds * 1000)),
                writerBatch: options.writerBatch,
                writerPause: .milliseconds(options.writerPauseMilliseconds),
                expectedRows: count)
            let outcome = try runBlocking { try await contender.concurrent(readers: readers, path: path, settings: settings) }
            measured = [
                (.concurrentRead(readers: readers), Double(outcome.reads) / outcome.readElapsed.seconds),
                (.concurrentWrite(readers: readers), Double(outcome.writtenRows) / outcome.writeElapsed.seconds),
            ]
        }
        for (workload, opsPerSecond) in measured {
            log("  \(contender.name.padding(toLength: 17, withPad: " ", startingAt: 0)) \(record ? "#\(round - options.warmup + 1)" : "warm-up") \(formatNumber(opsPerSecond)) \(workload.unit)\(workload.isWriter ? " (writer)" : "")")
            if record {
                results[workload, default: [:]][contender.name, default: Samples(workload: workload, contender: contender.name)]
                    .opsPerSecond.append(opsPerSecond)
            }
        }
    }

    // MARK: Expected results

    private lazy var expectedAll = Checksum(dataset.rows)
    private lazy var expectedByID = Checksum(dataset.lookupIDs.lazy.map { self.dataset.rows[Int($0) - 1] })
    /// What the query workload must return, derived from the data set (nil when scores tie,
    /// where the order of equal scores is SQLite's choice).
    private lazy var expectedQuery: Checksum? = {
        let candidates = dataset.rows.filter { $0.age != nil }.sorted { $0.score < $1.score }
        guard Set(candidates.map(\.score)).count == candidates.count else { return nil }
        var checksum = Checksum()
        for threshold in dataset.queryThresholds {
            // The first index whose score is not below the threshold.
            var low = 0, high = candidates.count
            while low < high {
                let middle = (low + high) / 2
                if candidates[middle].score < threshold { low = middle + 1 } else { high = middle }
            }
            for row in candidates[Swift.max(0, low - Schema.queryLimit)..<low].reversed() {
                checksum.add(row)
            }
        }
        return checksum
    }()

    private func verifyTable(at path: String, key: String?, equals expected: Checksum, _ label: String) throws {
        let connection = try RawConnection(path: path, key: key)
        var rows: [BenchRow] = []
        let statement = try connection.prepare(Schema.selectAll)
        try readAll(statement, into: &rows, connection: connection)
        try expect(Checksum(rows), equals: expected, "\(label): table after the run")
    }

    // MARK: Files

    private var fileCounter = 0

    private func freshPath(_ label: String) throws -> String {
        fileCounter += 1
        let name = label.replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "#", with: "")
        return directory.appendingPathComponent("\(fileCounter)-\(name).sqlite").path
    }

    private func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

extension Workload {
    var isConcurrent: Bool {
        switch self {
        case .concurrentRead, .concurrentWrite: true
        default: false
        }
    }

    var isWriter: Bool {
        if case .concurrentWrite = self { return true }
        return false
    }
}

/// Progress goes to standard error, the report to standard output.
func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `1234567.8` → `1,234,568`; small numbers keep a decimal or two.
func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    if value < 10 { return String(format: "%.2f", value) }
    if value < 100 { return String(format: "%.1f", value) }
    let digits = String(Int(value.rounded()))
    var grouped = ""
    for (index, character) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(character)
    }
    return grouped
}
