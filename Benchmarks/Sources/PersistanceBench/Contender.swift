/// SQLite's `PRAGMA synchronous` levels.
enum Synchronous: Int32, Sendable, CustomStringConvertible {
    case off = 0, normal = 1, full = 2, extra = 3

    var description: String {
        switch self {
        case .off: "OFF"
        case .normal: "NORMAL"
        case .full: "FULL"
        case .extra: "EXTRA"
        }
    }

    /// The level of a `PRAGMA synchronous` answer.
    init(readBack value: Int) throws {
        guard let level = Synchronous(rawValue: Int32(value)) else {
            throw BenchError("PRAGMA synchronous answered \(value), not a level")
        }
        self = level
    }
}

/// What every contender is told before it runs, so that all run alike.
struct ContenderSettings: Sendable {
    /// The `synchronous` level every write connection sets (Persistance's default, read
    /// back from its writer: the others follow it).
    var synchronous: Synchronous
    /// Persistance's `spinWait` (`--spin-wait-us`); nil keeps the library's default.
    var spinWait: Duration? = nil
}

/// One library (or the raw C API) running the workloads. Each method prepares its records
/// and connections, then times only the operation itself inside one `measure` call, and
/// returns the elapsed time with, for fetches, a checksum of what it read (computed after
/// the clock stopped: the records are kept until then).
///
/// Every contender runs each workload in the same transaction shape (see each method), sets
/// `synchronous` to `ContenderSettings.synchronous` on its write connections and reports it
/// back through `synchronous(path:)`. Workloads a contender does not implement keep the
/// default below (they throw) and must be left out of its `supports(_:)`.
protocol Contender: Sendable {
    /// The name in the report (`raw-c`, `grdb`, `persistance-fast`...).
    var name: String { get }
    /// The workloads this contender runs (others are skipped).
    func supports(_ workload: Workload) -> Bool
    /// The `synchronous` level of the write connection it opens on `path`, read back from it.
    func synchronous(path: String) throws -> Synchronous

    /// Inserts `rows` in one transaction into the empty table of the database at `path`.
    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration
    /// Fetches every row of the table into an array.
    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum)
    /// Walks every row of the table (`rowCount` rows) with a cursor, keeping each record as
    /// it comes in an array reserved before the clock starts; the checksum is taken after
    /// the clock stops, as for every fetch.
    func fetchCursor(path: String, rowCount: Int) throws -> (Duration, Checksum)
    /// Fetches the row of each id, one by one, all in one read transaction.
    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum)
    /// Runs `Schema.query` once per threshold, all in one read transaction.
    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum)
    /// Runs `Schema.query`'s SQL text through the statement cache once per threshold, all
    /// in one read transaction (contenders whose `query` already runs the SQL text run the
    /// same code for both).
    func querySQL(_ thresholds: [Double], path: String) throws -> (Duration, Checksum)
    /// Upserts `rows` in one transaction.
    func upsert(_ rows: [BenchRow], path: String) throws -> Duration
    /// Inserts each of `rows` in a write transaction of its own, through `access`.
    func writeTransactions(_ rows: [BenchRow], path: String, access: Access) throws -> Duration
    /// Fetches the row of each id in a read transaction of its own, through `access`.
    func lookupTransactions(_ ids: [Int64], path: String, access: Access) throws -> (Duration, Checksum)
    /// Runs `count` empty read blocks, through `access`.
    func emptyReads(count: Int, path: String, access: Access) throws -> Duration
    /// Runs `readers` readers and one writer concurrently.
    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) async throws -> ConcurrentOutcome
    /// Fetches the row of each id through a DAO module method (or, for the baseline, the same
    /// SQL through cached statements), one awaited read transaction per id.
    func daoLookups(_ ids: [Int64], path: String) throws -> (Duration, Checksum)
}

extension Contender {
    /// The workloads every contender implements; a contender that implements more says so.
    func supports(_ workload: Workload) -> Bool {
        switch workload {
        case .insert, .fetchAll, .fetchCursor, .fetchByID, .query, .upsert, .concurrentRead, .concurrentWrite: true
        default: false
        }
    }

    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration {
        throw unsupported(key == nil ? .insert : .insertEncrypted)
    }

    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum) {
        throw unsupported(key == nil ? .fetchAll : .fetchEncrypted)
    }

    func fetchCursor(path: String, rowCount: Int) throws -> (Duration, Checksum) {
        throw unsupported(.fetchCursor)
    }

    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        throw unsupported(.fetchByID)
    }

    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        throw unsupported(.query)
    }

    func upsert(_ rows: [BenchRow], path: String) throws -> Duration {
        throw unsupported(.upsert)
    }

    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) async throws -> ConcurrentOutcome {
        throw unsupported(.concurrentRead(readers: readers))
    }

    func querySQL(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        throw unsupported(.querySQL)
    }

    func writeTransactions(_ rows: [BenchRow], path: String, access: Access) throws -> Duration {
        throw unsupported(.writeTransaction(access))
    }

    func lookupTransactions(_ ids: [Int64], path: String, access: Access) throws -> (Duration, Checksum) {
        throw unsupported(.lookupTransaction(access))
    }

    func emptyReads(count: Int, path: String, access: Access) throws -> Duration {
        throw unsupported(.emptyRead(access))
    }

    func daoLookups(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        throw unsupported(.dao)
    }

    private func unsupported(_ workload: Workload) -> BenchError {
        BenchError("\(name) does not run \(workload.name)")
    }
}
