import Foundation

/// One way of talking to PostgreSQL, doing the workloads' transactions through its own API.
///
/// Every method but the conversions runs one workload's measured code: the harness times it
/// and checks what it returns after the clock stops. Every contender runs the same transaction
/// shape: one transaction around the whole insert, the whole fetch, and each task's lookups.
protocol Contender: Sendable {
    /// The contender's own record type.
    associatedtype Record: Sendable

    /// The contender's name in the report.
    var name: String { get }

    /// The data set as records to insert (before the clock starts).
    func records(_ items: [BenchItem]) -> [Record]

    /// Inserts every record, one INSERT statement each, in one read-write transaction, and sets
    /// each record's id to the one the server generated.
    func insert(_ records: inout [Record]) async throws

    /// Fetches every row of the table as records, in one read-only transaction.
    func fetchAll() async throws -> [Record]

    /// Fetches the record of each key, in one read-only transaction.
    func lookUp(_ keys: ArraySlice<Int64>) async throws -> [Record]

    /// A record's fields, for the checksum (after the clock stops).
    func item(_ record: Record) -> BenchItem

    /// Closes the contender's connections.
    func close() async
}

/// What one measured run of a workload took and returned.
struct Measurement {
    var elapsed: Duration
    var checksum: Checksum
}

extension Contender {
    /// Inserts the data set into the empty table; the checksum covers the ids read back.
    func measureInsert(_ items: [BenchItem]) async throws -> Measurement {
        var inserted = records(items)
        let elapsed = try await ContinuousClock().measure { try await insert(&inserted) }
        return Measurement(elapsed: elapsed, checksum: Checksum(inserted.map(item)))
    }

    func measureFetchAll() async throws -> Measurement {
        var fetched: [Record] = []
        let elapsed = try await ContinuousClock().measure { fetched = try await fetchAll() }
        return Measurement(elapsed: elapsed, checksum: Checksum(fetched.map(item)))
    }

    /// Looks the keys up from `tasks` concurrent tasks, each in its own transaction, each its
    /// share of the keys (contiguous slices); one task runs in the caller's task.
    func measureLookups(_ keys: [Int64], tasks: Int) async throws -> Measurement {
        let shares = Self.shares(of: keys.count, tasks: tasks).map { keys[$0] }
        var fetched: [[Record]] = []
        let elapsed = try await ContinuousClock().measure {
            if tasks == 1 {
                fetched = [try await lookUp(shares[0])]
            } else {
                fetched = try await withThrowingTaskGroup(of: [Record].self) { group in
                    for share in shares {
                        group.addTask { try await lookUp(share) }
                    }
                    var results: [[Record]] = []
                    for try await records in group { results.append(records) }
                    return results
                }
            }
        }
        return Measurement(elapsed: elapsed, checksum: Checksum(fetched.joined().map(item)))
    }

    /// `count` positions split into `tasks` contiguous ranges of (almost) equal length.
    static func shares(of count: Int, tasks: Int) -> [Range<Int>] {
        (0..<tasks).map { task in (count * task / tasks)..<(count * (task + 1) / tasks) }
    }
}
