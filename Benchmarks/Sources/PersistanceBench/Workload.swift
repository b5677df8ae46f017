import Dispatch

/// How a per-call workload reaches the database.
enum Access: String, Hashable, Sendable, CaseIterable {
    /// The library's blocking entry point (`writeSync`/`readSync`, GRDB's `write`/`read`;
    /// raw C's own loop).
    case sync
    /// The library's `async` entry point, awaited from a task, one call after the other.
    case async
    /// A connection opened directly, without the library's executor.
    case bare

    /// The suffix of the workload name (`txn-write-async`).
    var suffix: String { self == .sync ? "" : "-\(rawValue)" }
}

/// A measured operation. Every workload reports operations per second; `unit` says what one
/// operation is.
enum Workload: Hashable, Sendable, Comparable {
    /// Insert every row of the data set in one transaction, into a fresh database.
    case insert
    /// Fetch every row as a record.
    case fetchAll
    /// Walk every row as a record with a cursor (the benchmark keeps each, to checksum them
    /// after the clock stops).
    case fetchCursor
    /// Fetch one record by primary key, `lookups` times, all in one read transaction.
    case fetchByID
    /// Run a filtered, ordered, limited query (ten rows), `lookups` times, all in one read transaction.
    case query
    /// The `query` workload's SQL text, run through the statement cache with its values
    /// bound, `lookups` times in one read transaction: what the query builder's building and
    /// rendering cost is measured against.
    case querySQL
    /// Upsert every row of the data set in one transaction; half of the ids exist.
    case upsert
    /// Write one row per write transaction, `transactions` times.
    case writeTransaction(Access)
    /// Fetch one record by primary key per read transaction, `lookups` times.
    case lookupTransaction(Access)
    /// Run an empty read block (a read transaction round trip), `lookups` times.
    case emptyRead(Access)
    /// `readers` readers each fetch every row, again and again, while one writer inserts:
    /// full fetches per second, all readers together.
    case concurrentRead(readers: Int)
    /// The writer of `concurrentRead(readers:)`: rows it committed per second.
    case concurrentWrite(readers: Int)
    /// `insert` into an encrypted database (SQLCipher build).
    case insertEncrypted
    /// `fetchAll` from an encrypted database (SQLCipher build).
    case fetchEncrypted
    /// Fetch one row by primary key through a DAO module method, one read transaction per
    /// call (awaited), `lookups` times; the baseline runs the same SQL through the core's
    /// cached statements in the same shape.
    case dao

    var name: String {
        switch self {
        case .insert: "insert"
        case .fetchAll: "fetch-all"
        case .fetchCursor: "fetch-cursor"
        case .fetchByID: "fetch-by-id"
        case .query: "query"
        case .querySQL: "query-sql"
        case .upsert: "upsert"
        case .writeTransaction(let access): "txn-write\(access.suffix)"
        case .lookupTransaction(let access): "txn-lookup\(access.suffix)"
        case .emptyRead(let access): "txn-empty-read\(access.suffix)"
        case .concurrentRead(let readers): "concurrent-read-\(readers)r"
        case .concurrentWrite(let readers): "concurrent-write-\(readers)r"
        case .insertEncrypted: "insert-encrypted"
        case .fetchEncrypted: "fetch-encrypted"
        case .dao: "dao"
        }
    }

    var unit: String {
        switch self {
        case .insert, .fetchAll, .fetchCursor, .upsert, .insertEncrypted, .fetchEncrypted, .concurrentWrite: "rows/s"
        case .fetchByID, .lookupTransaction, .dao: "lookups/s"
        case .query, .querySQL: "queries/s"
        case .writeTransaction: "txns/s"
        case .emptyRead: "reads/s"
        case .concurrentRead: "reads/s"
        }
    }

    /// Every workload of this build, in report order.
    static func all(readerCounts: [Int]) -> [Workload] {
        var workloads: [Workload] = [.insert, .fetchAll, .fetchCursor, .fetchByID, .query, .querySQL, .upsert]
        for access in Access.allCases { workloads.append(.writeTransaction(access)) }
        for access in Access.allCases { workloads.append(.lookupTransaction(access)) }
        for access in Access.allCases { workloads.append(.emptyRead(access)) }
        workloads.append(.dao)
        for readers in readerCounts {
            workloads.append(.concurrentRead(readers: readers))
        }
        if isEncryptionAvailable {
            workloads += [.insertEncrypted, .fetchEncrypted]
        }
        return workloads
    }

    /// The order of the report.
    private var rank: (Int, Int) {
        func order(_ access: Access) -> Int { Access.allCases.firstIndex(of: access) ?? 0 }
        return switch self {
        case .insert: (0, 0)
        case .fetchAll: (1, 0)
        case .fetchCursor: (2, 0)
        case .fetchByID: (3, 0)
        case .query: (4, 0)
        case .querySQL: (4, 1)
        case .upsert: (5, 0)
        case .writeTransaction(let access): (6, order(access))
        case .lookupTransaction(let access): (7, order(access))
        case .emptyRead(let access): (8, order(access))
        case .dao: (8, Access.allCases.count)
        case .concurrentRead(let readers): (9, readers * 2)
        case .concurrentWrite(let readers): (9, readers * 2 + 1)
        case .insertEncrypted: (10, 0)
        case .fetchEncrypted: (11, 0)
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
