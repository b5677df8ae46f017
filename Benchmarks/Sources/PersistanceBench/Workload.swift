import Dispatch

/// A measured operation. Every workload reports operations per second; `unit` says what one
/// operation is.
enum Workload: Hashable, Sendable, Comparable {
    /// Insert every row of the data set in one transaction, into a fresh database.
    case insert
    /// Fetch every row as a record.
    case fetchAll
    /// Fetch one record by primary key, `lookups` times.
    case fetchByID
    /// Run a filtered, ordered, limited query (ten rows), `lookups` times.
    case query
    /// Upsert every row of the data set in one transaction; half of the ids exist.
    case upsert
    /// `readers` readers each fetch every row, again and again, while one writer inserts:
    /// full fetches per second, all readers together.
    case concurrentRead(readers: Int)
    /// The writer of `concurrentRead(readers:)`: rows it committed per second.
    case concurrentWrite(readers: Int)
    /// `insert` into an encrypted database (SQLCipher build).
    case insertEncrypted
    /// `fetchAll` from an encrypted database (SQLCipher build).
    case fetchEncrypted

    var name: String {
        switch self {
        case .insert: "insert"
        case .fetchAll: "fetch-all"
        case .fetchByID: "fetch-by-id"
        case .query: "query"
        case .upsert: "upsert"
        case .concurrentRead(let readers): "concurrent-read-\(readers)r"
        case .concurrentWrite(let readers): "concurrent-write-\(readers)r"
        case .insertEncrypted: "insert-encrypted"
        case .fetchEncrypted: "fetch-encrypted"
        }
    }

    var unit: String {
        switch self {
        case .insert, .fetchAll, .upsert, .insertEncrypted, .fetchEncrypted, .concurrentWrite: "rows/s"
        case .fetchByID: "lookups/s"
        case .query: "queries/s"
        case .concurrentRead: "reads/s"
        }
    }

    /// The order of the report.
    private var rank: (Int, Int) {
        switch self {
        case .insert: (0, 0)
        case .fetchAll: (1, 0)
        case .fetchByID: (2, 0)
        case .query: (3, 0)
        case .upsert: (4, 0)
        case .concurrentRead(let readers): (5, readers * 2)
        case .concurrentWrite(let readers): (5, readers * 2 + 1)
        case .insertEncrypted: (6, 0)
        case .fetchEncrypted: (7, 0)
        }
    }

    static func < (lhs: Workload, rhs: Workload) -> Bool {
        lhs.rank < rhs.rank
    }
}

/// The knobs of the concurrent workload.
struct ConcurrentSettings: Sendable {
    /// How long each reader keeps starting new full fetches.
    var duration: Duration
    /// Rows per writer transaction.
    var writerBatch: Int
    /// Pause between writer transactions.
    var writerPause: Duration
    /// Rows the readers must find.
    var expectedRows: Int
}

/// What one repetition of the concurrent workload did.
struct ConcurrentOutcome: Sendable {
    /// Full fetches completed by all readers together.
    var reads: Int
    /// From the moment the readers started to the moment the last one finished.
    var readElapsed: Duration
    /// Rows the writer committed.
    var writtenRows: Int
    /// How long the writer ran.
    var writeElapsed: Duration
}

/// One library (or the raw C API) running the workloads. Each method prepares its records
/// and connections, then times only the operation itself, and returns the elapsed time with,
/// for fetches, a checksum of what it read (computed after the clock stopped).
protocol Contender: Sendable {
    /// The name in the report: `raw-c`, `grdb`, `grdb-codable`, `persistance`, `persistance-fast`.
    var name: String { get }
    /// The workloads this contender runs (others are skipped).
    func supports(_ workload: Workload) -> Bool

    /// Inserts `rows` in one transaction into the empty table of the database at `path`.
    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration
    /// Fetches every row of the table.
    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum)
    /// Fetches the row of each id, one by one.
    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum)
    /// Runs `Schema.query` once per threshold.
    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum)
    /// Upserts `rows` in one transaction.
    func upsert(_ rows: [BenchRow], path: String) throws -> Duration
    /// Runs `readers` readers and one writer concurrently.
    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) async throws -> ConcurrentOutcome
}

extension Contender {
    func supports(_ workload: Workload) -> Bool {
        switch workload {
        case .insertEncrypted, .fetchEncrypted: false
        default: true
        }
    }
}

/// Measures `body` with the continuous clock.
@inline(__always)
func measure(_ body: () throws -> Void) rethrows -> Duration {
    let clock = ContinuousClock()
    let start = clock.now
    timedRegionStart()
    try body()
    timedRegionEnd()
    return clock.now - start
}

// Markers around the measured code of every workload but the concurrent one, for
// profilers: `valgrind --tool=callgrind --dump-before='*timedRegionStart*'
// --dump-before='*timedRegionEnd*' …` writes the instructions of the measured code, on
// every thread (the executor's too), to a part of its own (see `profile.sh`). Never
// inlined, not optimized (so never cloned or merged), and with different bodies.

/// How many measured regions have started; only there so the markers differ.
nonisolated(unsafe) private var regionStarts = 0
/// How many measured regions have ended.
nonisolated(unsafe) private var regionEnds = 0

@inline(never) @_optimize(none)
func timedRegionStart() { regionStarts += 1 }

@inline(never) @_optimize(none)
func timedRegionEnd() { regionEnds += 1 }

/// Runs `body` in a task and blocks the calling thread until it finishes.
///
/// The benchmark's main thread is synchronous on purpose: valgrind (callgrind) crashes on
/// an `async` main, and a synchronous main keeps every single-connection workload
/// profilable. Only the concurrent workload runs tasks.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await body()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    guard let outcome = result.value else { throw BenchError("runBlocking: no result") }
    return try outcome.get()
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
