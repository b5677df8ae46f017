import Foundation
import Persistance
import Synchronization
import Testing

#if PostgreSQL
import PersistancePostgres
#endif

/// Observation through the portable API (`observe`, `observe(sharing:)`, `tableChanges(in:)`),
/// the same on every engine (see `ConformanceBackend`): the first value at once, a value per
/// relevant commit (of this handle or another one), nothing for a rollback or an unobserved
/// table, bursts coalesced, values shared by key, failures and cancellation ending the sequence.
///
/// No timing is asserted: every wait is for an event, with a generous timeout as a safety net.
@Suite struct ObservationConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func theFirstValueComesAtOnceAndACommitYieldsTheNext(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkFirstValueAndCommit(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aRolledBackWriteYieldsNothing(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkRollbackYieldsNothing(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aCommitToAnUnobservedTableYieldsNothing(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkUnobservedTable(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aBurstOfCommitsCoalescesAndEndsOnTheFinalState(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkBurstCoalesces(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func removeDuplicatesSkipsEqualValues(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkRemoveDuplicates(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func observationsWithOneKeyShareTheirFetch(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkSharing(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aFetchThatThrowsEndsTheSequenceWithItsError(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkFailingFetch(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func cancellingTheConsumerEndsTheSequence(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkCancellation(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func tableChangesNameCommittedTablesOnly(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkTableChanges(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func tableChangesRefuseWhatIsNoTable(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkTableChangesRefusals(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aCommitFromElsewhereIsSeen(_ backend: ConformanceBackend) async throws {
        try await backend.withCommitsFromElsewhere { db, commitElsewhere in
            try await checkCommitFromElsewhere(db, commitElsewhere)
        }
    }
}

// MARK: Checks

private struct Abandon: Error {}

private struct TooMany: Error {}

private func checkFirstValueAndCommit(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db, rows: 2)
    let counts = ObservedValues(db.observe { tx in try await countRows(of: table, in: tx) })
    try await counts.waitUntil { $0.values == [2] }

    try await insertRows(1, into: table, db)
    try await counts.waitUntil { $0.values.last == 3 }
    #expect(counts.values == [2, 3])
    #expect(!counts.hasEnded)
}

private func checkRollbackYieldsNothing(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let counts = ObservedValues(db.observe { tx in try await countRows(of: table, in: tx) })
    try await counts.waitUntil { $0.values == [0] }

    let error = await thrownError {
        try await db.write { tx in
            try await insertRows(5, into: table, tx)
            throw Abandon()
        }
    }
    #expect(error is Abandon)
    try await db.write { tx in
        // A savepoint rolled back inside a committed transaction is not seen either.
        _ = try? await tx.savepoint { tx in
            try await insertRows(5, into: table, tx)
            throw Abandon()
        }
        try await insertRows(1, into: table, tx)
    }
    try await counts.waitUntil { $0.values.last == 1 }
    #expect(counts.values == [0, 1])
}

private func checkUnobservedTable(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let unobserved = try await makeCounted(db)
    let counts = ObservedValues(db.observe { tx in try await countRows(of: table, in: tx) })
    try await counts.waitUntil { $0.values == [0] }

    try await insertRows(3, into: unobserved, db)
    try await insertRows(1, into: table, db)
    try await counts.waitUntil { $0.values.last == 1 }
    // A fetch after the unobserved commit would have repeated 0.
    #expect(counts.values == [0, 1])
}

private func checkBurstCoalesces(_ db: some AsyncDatabase) async throws {
    let commits = 30
    let table = try await makeCounted(db)
    let counts = ObservedValues(db.observe { tx in try await countRows(of: table, in: tx) })
    try await counts.waitUntil { $0.values == [0] }

    // A busy consumer: the burst lands while it takes no value.
    counts.hold()
    for commit in 1...commits {
        try await insertRows(1, into: table, db)
        if commit.isMultiple(of: 5) {
            // Rolled back: a value above `commits` would show it.
            _ = await thrownError {
                try await db.write { tx in
                    try await insertRows(100, into: table, tx)
                    throw Abandon()
                }
            }
        }
    }
    counts.release()
    try await counts.waitUntil { $0.values.last == commits }
    let values = counts.values
    #expect(values.count < commits + 1, "\(values)")
    #expect(values == values.sorted(), "values in commit order")
    #expect(values.max() == commits, "no rolled-back state: \(values)")
}

private func checkRemoveDuplicates(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db, rows: 1)
    // Both share one fetch: each value reaches both, so only removeDuplicates tells them apart.
    let key = uniqueName("count")
    let every = ObservedValues(db.observe(sharing: key) { tx in try await countRows(of: table, in: tx) })
    try await every.waitUntil { $0.values == [1] }
    let distinct = ObservedValues(db.observe(sharing: key) { tx in try await countRows(of: table, in: tx) }.removeDuplicates())
    try await distinct.waitUntil { $0.values == [1] }

    // A commit that changes no count: its value is fetched, and skipped by removeDuplicates.
    try await db.write { tx in _ = try await tx.execute("UPDATE \(table) SET n = n + 1", []) }
    try await every.waitUntil { $0.values == [1, 1] }
    try await insertRows(1, into: table, db)
    try await every.waitUntil { $0.values.last == 2 }
    try await distinct.waitUntil { $0.values.last == 2 }
    #expect(every.values == [1, 1, 2])
    #expect(distinct.values == [1, 2])
}

private func checkSharing(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let fetches = FetchCounter()
    let observation = db.observe(sharing: uniqueName("shared")) { tx in
        fetches.increment()
        return try await countRows(of: table, in: tx)
    }
    let first = ObservedValues(observation)
    try await first.waitUntil { $0.values == [0] }
    let fetchesBeforeJoining = fetches.value
    let second = ObservedValues(observation)
    // Joining a running observation hands its latest value, without fetching.
    try await second.waitUntil { $0.values == [0] }
    #expect(fetches.value == fetchesBeforeJoining)

    try await insertRows(1, into: table, db)
    try await first.waitUntil { $0.values.last == 1 }
    try await second.waitUntil { $0.values.last == 1 }
    #expect(first.values == [0, 1])
    #expect(second.values == [0, 1])
    #expect(fetches.value == fetchesBeforeJoining + 1, "one fetch for both")
}

private func checkFailingFetch(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let failing = ObservedValues(db.observe { tx in
        let count = try await countRows(of: table, in: tx)
        if count > 0 { throw TooMany() }
        return count
    })
    try await failing.waitUntil { $0.values == [0] }

    try await insertRows(1, into: table, db)
    try await failing.waitUntil { $0.hasEnded }
    #expect(failing.error is TooMany)
    #expect(failing.values == [0])
}

private func checkCancellation(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let counts = ObservedValues(db.observe { tx in try await countRows(of: table, in: tx) })
    let changes = ObservedValues(try await db.tableChanges(in: [table]))
    try await counts.waitUntil { $0.values == [0] }

    counts.cancel()
    changes.cancel()
    try await counts.waitUntil { $0.hasEnded }
    try await changes.waitUntil { $0.hasEnded }
    #expect(counts.error == nil)
    // The database carries on.
    try await insertRows(1, into: table, db)
    let count = try await db.read { tx in try await countRows(of: table, in: tx) }
    #expect(count == 1)
}

private func checkTableChanges(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let marker = try await makeCounted(db)
    let changes = ObservedValues(try await db.tableChanges(in: [table, marker]))

    // One transaction: each table it changed once, however many rows and statements.
    try await db.write { tx in
        try await insertRows(3, into: table, tx)
        _ = try await tx.execute("UPDATE \(table) SET n = n + 1", [])
        try await insertRows(1, into: marker, tx)
    }
    try await changes.waitUntil { $0.values.count >= 2 }
    #expect(Set(changes.values) == [.table(table), .table(marker)])

    _ = await thrownError {
        try await db.write { tx in
            try await insertRows(1, into: table, tx)
            throw Abandon()
        }
    }
    try await insertRows(1, into: marker, db)
    try await changes.waitUntil { $0.values.count >= 3 }
    #expect(changes.values.count == 3)
    #expect(changes.values.last == .table(marker), "the rolled-back write is not announced")
}

private func checkTableChangesRefusals(_ db: some AsyncDatabase) async throws {
    let table = try await makeCounted(db)
    let view = uniqueName("view")
    try await db.write { tx in _ = try await tx.execute("CREATE VIEW \(view) AS SELECT * FROM \(table)", []) }
    for tables in [[], [uniqueName("missing")], [view], [table, uniqueName("missing")]] {
        let error = await thrownError { try await db.tableChanges(in: tables) }
        #expect((error as? DatabaseError)?.kind == .invalidArguments, "\(tables)")
    }
}

private func checkCommitFromElsewhere(
    _ db: some AsyncDatabase, _ commitElsewhere: @Sendable (String) async throws -> Void
) async throws {
    let table = try await makeCounted(db)
    let counts = ObservedValues(db.observe { tx in try await countRows(of: table, in: tx) })
    let changes = ObservedValues(try await db.tableChanges(in: [table]))
    try await counts.waitUntil { $0.values == [0] }

    try await commitElsewhere("INSERT INTO \(table)(n) VALUES (1)")
    try await counts.waitUntil { $0.values.last == 1 }
    try await changes.waitUntil { !$0.values.isEmpty }
    // PostgreSQL names the table; SQLite knows only that another connection committed.
    let announced: Set<DatabaseChange> = [.table(table), .external]
    #expect(announced.contains(changes.values[0]))
}

// MARK: Fixtures

/// A table `name(id, n INTEGER)` with `rows` rows.
private func makeCounted(_ db: some AsyncDatabase, rows: Int = 0) async throws -> String {
    let table = uniqueName("obs")
    try await db.write { tx in
        try await tx.execute(tx.createTableSQL(table, "n \(tx.integerType)"), [])
        try await insertRows(rows, into: table, tx)
    }
    return table
}

private func insertRows(_ count: Int, into table: String, _ tx: some DatabaseTransaction) async throws {
    for _ in 0..<count {
        try await tx.execute("INSERT INTO \(table)(n) VALUES (1)", [])
    }
}

/// Inserts `count` rows in a transaction of their own.
private func insertRows(_ count: Int, into table: String, _ db: some AsyncDatabase) async throws {
    try await db.write { tx in try await insertRows(count, into: table, tx) }
}

private func countRows(of table: String, in tx: some DatabaseTransaction) async throws -> Int {
    try await tx.fetchAll("SELECT count(*) FROM \(table)", [])[0].value(at: 0, as: Int.self)
}

/// Counts the fetches of an observation.
private final class FetchCounter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}

extension ConformanceBackend {
    /// Opens a new, empty database of this engine and runs `body` with it and a way to commit
    /// a statement from elsewhere, as another process or app instance does: through another
    /// `PostgresDatabase` on the same server database; on SQLite, through a connection of its
    /// own to the same file (`Database.open` of the same file returns the same instance, one
    /// per file and process, so another process is what commits from elsewhere).
    func withCommitsFromElsewhere(
        _ body: (any AsyncDatabase, _ commitElsewhere: @Sendable (String) async throws -> Void) async throws -> Void
    ) async throws {
        switch self {
        case .sqlite:
            try await withSQLite { db in
                let configuration = db.configuration
                try await body(db) { sql in
                    let connection = try configuration.openWriter()
                    defer { try? connection.close() }
                    try connection.execute(sql)
                }
            }
        #if PostgreSQL
        case .postgres:
            try await ConformancePostgres.withDatabase { db in
                let other = try await PersistancePostgres.PostgresDatabase.open(configuration: db.configuration)
                let result = await Result {
                    try await body(db) { sql in try await other.write { tx in _ = try await tx.execute(sql, []) } }
                }
                await other.close()
                try result.get()
            }
        #endif
        }
    }
}
