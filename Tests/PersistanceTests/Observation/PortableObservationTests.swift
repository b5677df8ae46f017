import Foundation
import Testing

@testable import Persistance

/// The portable observation API on SQLite (`observe { tx in … }` with an asynchronous fetch over
/// a `SQLiteTransaction`), beyond the conformance suite: it runs on the synchronous
/// observations' scheduler, so their read tracking, in-memory databases and sharing apply.
@Suite("Portable observation on SQLite")
struct PortableObservationTests {
    nonisolated(nonsending) private func count(of table: String, in tx: SQLiteTransaction) async throws -> Int {
        try await tx.fetchAll("SELECT count(*) FROM \(table)", [])[0].value(at: 0, as: Int.self)
    }

    @Test("a synchronous fetch over a Connection still picks the synchronous API; an awaiting one the portable API")
    func overloadsResolveByTheFetch() async throws {
        let fixture = try await ObservedDatabase()
        let synchronous = fixture.db.observe { conn in try fixture.playerCount(conn) }
        let portable = fixture.db.observe { tx in try await count(of: "player", in: tx) }
        let sharedSynchronous = fixture.db.observe(sharing: "s") { conn in try fixture.playerCount(conn) }
        let sharedPortable = fixture.db.observe(sharing: "p") { tx in try await count(of: "player", in: tx) }
        #expect(type(of: synchronous) == ValueObservation<Int>.self)
        #expect(type(of: portable) == AsyncValueObservation<Int>.self)
        #expect(type(of: sharedSynchronous) == ValueObservation<Int>.self)
        #expect(type(of: sharedPortable) == AsyncValueObservation<Int>.self)
    }

    @Test("the tables an asynchronous fetch reads are found each time it runs")
    func readsAreTrackedThroughTheTransaction() async throws {
        let fixture = try await ObservedDatabase()
        // Reads `item` only once a player exists: a commit to `item` matters only then.
        let collector = Collector(fixture.db.observe { tx in
            let players = try await count(of: "player", in: tx)
            return players == 0 ? "players 0" : "players \(players), items \(try await count(of: "item", in: tx))"
        })
        #expect(try await collector.waitFor(1) == ["players 0"])
        try await fixture.insertPlayer("ann")
        #expect(try await collector.waitFor(2) == ["players 0", "players 1, items 0"])
        try await fixture.insertItem("sword")
        #expect(try await collector.waitFor(3) == ["players 0", "players 1, items 0", "players 1, items 1"])
        await collector.cancel()
    }

    @Test("the asynchronous fetch runs on the scheduler's own pool thread, so it needs no thread of the cooperative pool")
    func fetchRunsOnThePoolThread() async throws {
        let fixture = try await ObservedDatabase()
        // Threads of the cooperative pool that block elsewhere (a synchronous wait in another
        // task) cannot stall it: the blocked pool thread runs the fetch's task itself.
        let collector = Collector(fixture.db.observe { tx in
            let onPoolThread = ConnectionPool.current != nil
            return "\(try await count(of: "player", in: tx)) on a pool thread: \(onPoolThread)"
        })
        #expect(try await collector.waitFor(1) == ["0 on a pool thread: true"])
        try await fixture.insertPlayer("ann")
        #expect(try await collector.waitFor(2) == ["0 on a pool thread: true", "1 on a pool thread: true"])
        await collector.cancel()
    }

    @Test("an in-memory database runs the asynchronous fetch on its single connection")
    func inMemoryObservation() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { conn in try conn.execute("CREATE TABLE t(x)") }
        let collector = Collector(db.observe { tx in try await count(of: "t", in: tx) })
        #expect(try await collector.waitFor(1) == [0])
        try await db.write { tx in _ = try await tx.execute("INSERT INTO t VALUES (1)", []) }
        #expect(try await collector.waitFor(2) == [0, 1])
        await collector.cancel()
        try await db.close()
    }

    @Test("a fetch that reads the database itself rather than its transaction ends with reentrantAccess")
    func fetchUsingTheDatabaseIsRefused() async throws {
        let fixture = try await ObservedDatabase()
        let db = fixture.db
        let collector = Collector(db.observe { _ in try await db.read { tx in try await count(of: "player", in: tx) } })
        try await collector.waitFor(1)
        #expect(collector.elements.isEmpty)
        #expect((collector.failure as? DatabaseError)?.kind == .reentrantAccess)
    }

    @Test("synchronous and portable observations of one key and value type share one fetch")
    func synchronousAndPortableShare() async throws {
        let fixture = try await ObservedDatabase()
        let synchronous = Collector(fixture.db.observe(sharing: "players") { conn in try fixture.playerCount(conn) })
        #expect(try await synchronous.waitFor(1) == [0])
        let portable = Collector(fixture.db.observe(sharing: "players") { tx in try await count(of: "player", in: tx) })
        #expect(try await portable.waitFor(1) == [0])
        #expect(fixture.db.changeTracker.sharedObservations.count == 1)
        try await fixture.insertPlayer("ann")
        #expect(try await synchronous.waitFor(2) == [0, 1])
        #expect(try await portable.waitFor(2) == [0, 1])
        await synchronous.cancel()
        await portable.cancel()
        try await eventually { fixture.db.changeTracker.sharedObservations.count == 0 }
    }

    @Test("a SQLiteTransaction kept past its fetch refuses to run")
    func transactionKeptPastTheFetchIsRefused() async throws {
        let fixture = try await ObservedDatabase()
        let kept = Guarded<SQLiteTransaction.Kept?>(nil)
        let collector = Collector(fixture.db.observe { tx in
            kept.withLock { $0 = SQLiteTransaction.Kept(tx) }
            return try await count(of: "player", in: tx)
        })
        #expect(try await collector.waitFor(1) == [0])
        let transaction = try #require(kept.withLock { $0 }).transaction
        let error = await #expect(throws: DatabaseError.self) { try await transaction.fetchAll("SELECT 1", []) }
        #expect(error?.kind == .misuse)
        await collector.cancel()
    }
}

extension SQLiteTransaction {
    /// A transaction smuggled out of its block, to check that it refuses to run there.
    struct Kept: @unchecked Sendable {
        let transaction: SQLiteTransaction

        init(_ transaction: SQLiteTransaction) {
            self.transaction = transaction
        }
    }
}
