#if PostgreSQL
import Foundation
import Persistance
@testable import PersistancePostgres
import Synchronization
import Testing

/// Change streams and value observations hear the commits of every app instance (another
/// `PostgresDatabase` on the same server stands for another instance), through triggers and
/// LISTEN/NOTIFY, with SQLite's guarantees: no missed commit, no rolled-back change, bursts
/// coalesced, the first value at once, failures and closing ending what they must.
@Suite struct PostgresObservationTests {
    /// A table `t(id SERIAL, n INTEGER)` made on `db`, with `rows` rows.
    private func makeTable(on db: PostgresDatabase, rows: Int = 0) async throws -> String {
        let table = uniqueTableName("obs")
        try await db.write { tx in
            try await tx.execute("CREATE TABLE \(table)(id SERIAL PRIMARY KEY, n INTEGER)")
            for n in 0..<rows { try await tx.execute("INSERT INTO \(table)(n) VALUES ($1)", [.integer(Int64(n))]) }
        }
        return table
    }

    private func execute(_ sql: String, _ arguments: [DatabaseValue] = [], on db: PostgresDatabase) async throws {
        try await db.write { tx in _ = try await tx.execute(sql, arguments) }
    }

    private func insert(into table: String, on db: PostgresDatabase) async throws {
        try await execute("INSERT INTO \(table)(n) VALUES (1)", on: db)
    }

    private func count(of table: String) -> @Sendable (PostgresTransaction) async throws -> Int {
        { tx in try await tx.fetchOne("SELECT count(*) FROM \(table)")!.value(at: 0, as: Int.self) }
    }

    @Test func aCommitOfAnotherInstanceIsSeenByStreamsAndObservations() async throws {
        let db = try await TestServer.open()
        let other = try await TestServer.open()
        let table = try await makeTable(on: db)
        let changes = ObservedValues(try await db.changes(in: [table]))
        let counts = ObservedValues(db.observe(count(of: table)))
        try await counts.waitUntil { $0.values == [0] }

        try await insert(into: table, on: other)
        try await counts.waitUntil { $0.values.last == 1 }
        try await changes.waitUntil { $0.values == [.table(table)] }
        await other.close()
        await db.close()
    }

    @Test func aRolledBackTransactionOrSavepointIsNeverAnnounced() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        let marker = try await makeTable(on: db)
        let changes = ObservedValues(try await db.changes(in: [table, marker]))

        struct Abandon: Error {}
        _ = await failure {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table)(n) VALUES (1)")
                throw Abandon()
            }
        }
        try await db.write { tx in
            _ = try? await tx.savepoint { tx in
                try await tx.execute("DELETE FROM \(table)")
                throw Abandon()
            }
            try await tx.execute("INSERT INTO \(marker)(n) VALUES (1)")
        }
        try await changes.waitUntil { $0.values.contains(.table(marker)) }
        #expect(changes.values == [.table(marker)])
        await db.close()
    }

    @Test func aTransactionIsAnnouncedOncePerTableItChanged() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        let marker = try await makeTable(on: db)
        let changes = ObservedValues(try await db.changes(in: [table, marker]))

        try await db.write { tx in
            try await tx.execute("INSERT INTO \(table)(n) VALUES (1), (2)")
            try await tx.execute("INSERT INTO \(table)(n) VALUES (3)")
            try await tx.execute("UPDATE \(table) SET n = n + 1")
            try await tx.execute("INSERT INTO \(marker)(n) VALUES (1)")
        }
        try await execute("TRUNCATE \(table)", on: db)
        try await insert(into: marker, on: db)
        try await changes.waitUntil { $0.values.count >= 4 }
        #expect(changes.values == [.table(table), .table(marker), .table(table), .table(marker)])
        await db.close()
    }

    @Test func rapidCommitsCoalesceIntoFewValuesEndingOnTheLast() async throws {
        let db = try await TestServer.open()
        let other = try await TestServer.open()
        let table = try await makeTable(on: db)
        let counts = ObservedValues(db.observe(count(of: table)))
        try await counts.waitUntil { $0.values == [0] }

        let start = ContinuousClock.now
        for _ in 0..<500 { try await insert(into: table, on: other) }
        try await counts.waitUntil(for: .seconds(30)) { $0.values.last == 500 }
        let elapsed = ContinuousClock.now - start
        let values = counts.values
        // Coalesced: a fetch starts at most every 8 ms while the commits land.
        #expect(values.count < 500)
        #expect(values.count <= Int(elapsed / PostgresObservationHub<Int>.pacing) + 3, "\(values.count) values in \(elapsed)")
        #expect(values == values.sorted())
        await other.close()
        await db.close()
    }

    @Test func theFirstValueComesAtOnceAndEqualValuesCanBeSkipped() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db, rows: 3)
        let unrelated = try await makeTable(on: db)
        let counts = ObservedValues(db.observe(count(of: table)).removeDuplicates())
        try await counts.waitUntil { $0.values == [3] }

        // An UPDATE that changes no count announces the table: its fetch's value is skipped.
        try await execute("UPDATE \(table) SET n = n + 1", on: db)
        try await insert(into: unrelated, on: db)
        try await insert(into: table, on: db)
        try await counts.waitUntil { $0.values.last == 4 }
        #expect(counts.values == [3, 4])
        await db.close()
    }

    @Test func tablesReadThroughAViewAreObserved() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        let view = uniqueTableName("view")
        try await execute("CREATE VIEW \(view) AS SELECT * FROM \(table) WHERE n > 0", on: db)
        let counts = ObservedValues(db.observe(count(of: view)))
        try await counts.waitUntil { $0.values.last == 0 }

        try await insert(into: table, on: db)
        try await counts.waitUntil { $0.values.last == 1 }
        await db.close()
    }

    @Test func aFailingFetchEndsOnlyItsObservation() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        struct TooMany: Error {}
        let count = count(of: table)
        let failing = ObservedValues(db.observe { tx in
            let value = try await count(tx)
            if value > 0 { throw TooMany() }
            return value
        })
        let healthy = ObservedValues(db.observe(count))
        try await failing.waitUntil { $0.values == [0] }
        try await healthy.waitUntil { $0.values == [0] }

        try await insert(into: table, on: db)
        try await failing.waitUntil { $0.hasEnded }
        #expect(failing.error is TooMany)
        try await healthy.waitUntil { $0.values.last == 1 }
        try await insert(into: table, on: db)
        try await healthy.waitUntil { $0.values.last == 2 }
        #expect(!healthy.hasEnded)
        await db.close()
    }

    @Test func observationsWithOneKeyShareOneHubUntilTheLastLeaves() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        var first: ObservedValues<Int>? = ObservedValues(db.observe(sharing: "count", count(of: table)))
        var second: ObservedValues<Int>? = ObservedValues(db.observe(sharing: "count", count(of: table)))
        let unshared = ObservedValues(db.observe(count(of: table)))
        try await first?.waitUntil { $0.values == [0] }
        try await second?.waitUntil { $0.values == [0] }
        try await unshared.waitUntil { $0.values == [0] }
        #expect(db.changeNotifier.sharedObservations.count == 1)

        first = nil  // its consumer is cancelled: the hub keeps fetching for the second
        try await insert(into: table, on: db)
        try await second?.waitUntil { $0.values.last == 1 }
        #expect(db.changeNotifier.sharedObservations.count == 1)

        second = nil  // the last member leaves: the hub ends and is forgotten
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while db.changeNotifier.sharedObservations.count > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(db.changeNotifier.sharedObservations.count == 0)
        // A new member of the key starts a new hub, with a fresh value.
        let late = ObservedValues(db.observe(sharing: "count", count(of: table)))
        try await late.waitUntil { $0.values == [1] }
        try await insert(into: table, on: db)
        try await unshared.waitUntil { $0.values.last == 2 }
        try await late.waitUntil { $0.values.last == 2 }
        await db.close()
        try await late.waitUntil { $0.hasEnded }
        #expect(late.error == nil)
        #expect(db.changeNotifier.sharedObservations.count == 0)
    }

    @Test func closingTheDatabaseEndsEveryStream() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        let changes = ObservedValues(try await db.changes(in: [table]))
        let counts = ObservedValues(db.observe(count(of: table)))
        try await counts.waitUntil { $0.values == [0] }

        await db.close()
        try await changes.waitUntil { $0.hasEnded }
        try await counts.waitUntil { $0.hasEnded }
        #expect(counts.error == nil)
        let error = await failure { _ = try await db.changes(in: [table]) }
        #expect((error as? DatabaseError)?.kind == .databaseClosed)
        let late = ObservedValues(db.observe(count(of: table)))
        try await late.waitUntil { $0.hasEnded }
        #expect(late.values.isEmpty)
    }

    @Test func aTriggerIsInstalledOnceWhenTwoInstancesStartObservingTogether() async throws {
        let first = try await TestServer.open()
        let second = try await TestServer.open()
        let table = try await makeTable(on: first)
        async let firstChanges = first.changes(in: [table])
        async let secondChanges = second.changes(in: [table])
        let streams = try await [firstChanges, secondChanges].map { ObservedValues($0) }
        let triggers = try await first.read { tx in
            try await tx.fetchOne("SELECT count(*) FROM pg_trigger WHERE tgrelid = $1::regclass", [.text(table)])!
                .value(at: 0, as: Int.self)
        }
        #expect(triggers == 1)

        try await insert(into: table, on: first)
        for stream in streams { try await stream.waitUntil { $0.values == [.table(table)] } }
        await second.close()
        await first.close()
    }

    @Test func aLostListeningConnectionIsMadeAgainAndObserversFetchAgain() async throws {
        let db = try await TestServer.open()
        let other = try await TestServer.open()
        let table = try await makeTable(on: db)
        let changes = ObservedValues(try await db.changes(in: [table]))
        let counts = ObservedValues(db.observe(count(of: table)))
        try await counts.waitUntil { $0.values == [0] }
        let listener = try #require(db.changeNotifier.listenerBackendPID)

        try await execute("SELECT pg_terminate_backend($1::int)", [.integer(Int64(listener))], on: other)
        // Committed while the listener may be away: heard, or fetched again once it is back.
        try await insert(into: table, on: other)
        try await counts.waitUntil { $0.values.last == 1 }
        try await changes.waitUntil { $0.values.contains(.external) }
        let newListener = try #require(db.changeNotifier.listenerBackendPID)
        #expect(newListener != listener)

        try await insert(into: table, on: other)
        try await counts.waitUntil { $0.values.last == 2 }
        await other.close()
        await db.close()
    }

    @Test(arguments: [[String](), ["no_such_table_x"], ["pg_catalog.pg_class"], ["information_schema.sql_parts"]])
    func observingWhatIsNoTableIsRefused(tables: [String]) async throws {
        let db = try await TestServer.open()
        let error = await failure { _ = try await db.changes(in: tables) }
        #expect((error as? DatabaseError)?.kind == .invalidArguments)
        await db.close()
    }

    @Test(arguments: ["a.b.c.d", "x'; DROP TABLE y; --"])
    func aMalformedTableNameIsTheServersError(name: String) async throws {
        let db = try await TestServer.open()
        let error = await failure { _ = try await db.changes(in: [name]) }
        #expect((error as? DatabaseError)?.kind == .postgres)
        await db.close()
    }

    @Test func observingAViewsChangesIsRefused() async throws {
        let db = try await TestServer.open()
        let table = try await makeTable(on: db)
        let view = uniqueTableName("view")
        try await execute("CREATE VIEW \(view) AS SELECT * FROM \(table)", on: db)
        let error = await failure { _ = try await db.changes(in: [view]) }
        #expect((error as? DatabaseError)?.kind == .invalidArguments)
        await db.close()
    }
}
#endif
