import Foundation
import Persistance
import Synchronization
import Testing

/// The SQLite side of the portable API: how a portable block borrows the writer's (or a
/// reader's) connection from the executor (see `ConnectionLease`). The behaviour every engine
/// shares is tested in PersistanceConformanceTests.
@Suite struct SQLiteTransactionTests {
    private func open(_ directory: TemporaryDirectory) async throws -> Database {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("portable.sqlite")))
        try await db.write { conn in try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)") }
        return db
    }

    private func names(_ db: Database) async throws -> [String] {
        try await db.read { conn in try conn.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }
    }

    @Test func blocksThatAwaitGetATransactionAndTheOthersAConnection() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        // A block that awaits is the portable one; one that does not is the synchronous API's.
        let portable = try await db.write { tx in
            try await tx.execute("INSERT INTO item(name) VALUES (?)", ["a"])
            return String(describing: type(of: tx))
        }
        let sync = try await db.write { conn in
            try conn.execute("INSERT INTO item(name) VALUES (?)", ["b"])
            return String(describing: type(of: conn))
        }
        #expect(portable == "SQLiteTransaction")
        #expect(sync == "Connection")
        #expect(try await names(db) == ["a", "b"])
        // The synchronous API works as before after portable blocks.
        try db.writeSync { conn in try conn.execute("INSERT INTO item(name) VALUES ('c')") }
        #expect(try db.readSync { conn in try conn.fetchAll(String.self, "SELECT name FROM item ORDER BY id") } == ["a", "b", "c"])
        try await db.close()
    }

    @Test func cancelledBeforeStartingRunsNothing() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        let ran = Atomic<Bool>(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await db.write { tx in
                ran.store(true, ordering: .relaxed)
                try await tx.execute("INSERT INTO item(name) VALUES ('x')", [])
            }
        }
        let error = await #expect(throws: (any Error).self) { _ = try await task.value }
        #expect(error is CancellationError)
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
        #expect(try await names(db).isEmpty)
        try await db.close()
    }

    @Test func cancellingARunningBlockInterruptsItAndRollsBack() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        let started = Gate()
        let task = Task {
            try await db.write { tx in
                try await tx.execute("INSERT INTO item(name) VALUES ('rolled back')", [])
                started.open()
                // A statement that runs far longer than the test: only the interrupt ends it.
                _ = try await tx.fetchAll(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n", [])
            }
        }
        try await started.opened()
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        let error = await #expect(throws: (any Error).self) { try await task.value }
        #expect(error is CancellationError, "\(String(describing: error))")
        #expect(try await names(db).isEmpty)
        // The writer is free again.
        try await db.write { tx in try await tx.execute("INSERT INTO item(name) VALUES ('next')", []) }
        #expect(try await names(db) == ["next"])
        try await db.close()
    }

    @Test func closedDatabaseRunsNoBlock() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        try await db.close()
        let ran = Atomic<Bool>(false)
        for write in [true, false] {
            let error = await #expect(throws: (any Error).self) {
                if write {
                    try await db.write { _ in await Task.yield(); ran.store(true, ordering: .relaxed) }
                } else {
                    try await db.read { _ in await Task.yield(); ran.store(true, ordering: .relaxed) }
                }
            }
            #expect((error as? DatabaseError)?.kind == .databaseClosed, "\(String(describing: error))")
        }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test func closingWaitsForTheRunningBlockWhichCommits() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        let started = Gate()
        let proceed = Gate()
        let write = Task {
            try await db.write { tx in
                started.open()
                try await proceed.opened()
                try await tx.execute("INSERT INTO item(name) VALUES ('committed')", [])
            }
        }
        try await started.opened()
        let close = Task { try await db.close() }
        try await Task.sleep(for: .milliseconds(20))
        // Work submitted after the close began fails; the block already running goes on.
        let late = await #expect(throws: (any Error).self) { try await db.write { _ in } }
        #expect((late as? DatabaseError)?.kind == .databaseClosed)
        proceed.open()
        try await write.value
        try await close.value
        let reopened = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("portable.sqlite")))
        #expect(try await names(reopened) == ["committed"])
        try await reopened.close()
    }

    @Test func accessFromInsideABlockOfTheSameDatabaseIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        let kinds = try await db.write { tx in
            try await tx.execute("INSERT INTO item(name) VALUES ('outer')", [])
            var kinds: [DatabaseError.Kind?] = []
            for nested in 0..<2 {
                do {
                    if nested == 0 {
                        try await db.write { inner in try await inner.execute("INSERT INTO item(name) VALUES ('inner')", []) }
                    } else {
                        _ = try await db.read { inner in try await inner.fetchAll("SELECT 1", []) }
                    }
                    kinds.append(nil)
                } catch {
                    kinds.append((error as? DatabaseError)?.kind)
                }
            }
            return kinds
        }
        #expect(kinds == [.reentrantAccess, .reentrantAccess])
        #expect(try await names(db) == ["outer"])
        // Another database is fine from inside a block, and after the block the first one is free again.
        let other = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("other.sqlite")))
        try await db.write { _ in try await other.write { tx in try await tx.execute("CREATE TABLE t(x)", []) } }
        try await db.write { tx in try await tx.execute("INSERT INTO item(name) VALUES ('again')", []) }
        #expect(try await names(db) == ["outer", "again"])
        try await other.close()
        try await db.close()
    }

    @Test func transactionUsedAfterItsBlockThrowsATypedError() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        let escaped = try await db.write { tx in
            try await tx.execute("INSERT INTO item(name) VALUES ('a')", [])
            return Escaped(tx)
        }
        let error = await #expect(throws: (any Error).self) { try await escaped.transaction.execute("INSERT INTO item(name) VALUES ('b')", []) }
        #expect((error as? DatabaseError)?.kind == .misuse, "\(String(describing: error))")
        let fetchError = await #expect(throws: (any Error).self) { _ = try await escaped.transaction.fetchAll("SELECT 1", []) }
        #expect((fetchError as? DatabaseError)?.kind == .misuse)
        #expect(try await names(db) == ["a"])
        try await db.close()
    }

    @Test func portableWritesRunOneAtATimeInSubmissionOrder() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        try await db.write { conn in try conn.execute("CREATE TABLE counter(n INTEGER); INSERT INTO counter VALUES (0)") }
        let holding = Gate()
        let release = Gate()
        // Hold the writer so the writes below queue up, each submitted after the previous one.
        let holder = Task {
            try await db.write { tx in
                holding.open()
                try await release.opened()
                try await tx.execute("INSERT INTO item(name) VALUES ('holder')", [])
            }
        }
        try await holding.opened()
        var writers: [Task<Void, any Error>] = []
        for index in 0..<8 {
            writers.append(Task {
                try await db.write { tx in
                    // Read, suspend, write: another write running meanwhile would lose an update.
                    let n = try await tx.fetchAll("SELECT n FROM counter", [])[0].value(at: 0, as: Int.self)
                    await Task.yield()
                    try await tx.execute("UPDATE counter SET n = ?", [.integer(Int64(n + 1))])
                    try await tx.execute("INSERT INTO item(name) VALUES (?)", [.text("w\(index)")])
                }
            })
            try await Task.sleep(for: .milliseconds(10))
        }
        release.open()
        try await holder.value
        for writer in writers { try await writer.value }
        #expect(try await db.read { conn in try conn.fetchOne(Int.self, "SELECT n FROM counter") } == 8)
        #expect(try await names(db) == ["holder"] + (0..<8).map { "w\($0)" })
        try await db.close()
    }

    @Test func portableReadRunsBesideASynchronousWrite() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        try await db.write { conn in try conn.execute("INSERT INTO item(name) VALUES ('before')") }
        let reading = Gate()
        let written = Gate()
        let read = Task {
            try await db.read { tx in
                let first = try await tx.fetchAll("SELECT name FROM item ORDER BY id", []).map { try $0.value(at: 0, as: String.self) }
                reading.open()
                try await written.opened()
                // Same snapshot from start to end, whatever committed meanwhile.
                let second = try await tx.fetchAll("SELECT name FROM item ORDER BY id", []).map { try $0.value(at: 0, as: String.self) }
                return [first, second]
            }
        }
        try await reading.opened()
        // The write runs (and commits) while the portable read holds its reader.
        try await db.write { conn in try conn.execute("INSERT INTO item(name) VALUES ('during')") }
        written.open()
        #expect(try await read.value == [["before"], ["before"]])
        #expect(try await names(db) == ["before", "during"])
        try await db.close()
    }

    @Test func statementsRunBetweenTheRowsOfAWalk() async throws {
        let directory = try TemporaryDirectory()
        let db = try await open(directory)
        try await db.write { conn in try conn.execute("INSERT INTO item(name) VALUES ('a'), ('b'), ('c')") }
        let seen = try await db.read { tx in
            var seen: [String] = []
            // The walk keeps its statement; the same query run inside gets a statement of its own.
            try await tx.forEachRow("SELECT name FROM item ORDER BY id", []) { row in
                let all = try await tx.fetchAll("SELECT name FROM item ORDER BY id", [])
                seen.append("\(try row.value(at: 0, as: String.self))\(all.count)")
            }
            return seen
        }
        #expect(seen == ["a3", "b3", "c3"])
        try await db.close()
    }

    @Test func inMemoryDatabaseRunsPortableReadsAndWrites() async throws {
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { tx in
            try await tx.execute("CREATE TABLE t(x)", [])
            try await tx.execute("INSERT INTO t VALUES (1)", [])
        }
        let rows = try await db.read { tx in try await tx.fetchAll("SELECT x FROM t", []) }
        #expect(rows.map(\.values) == [[.integer(1)]])
        let error = await #expect(throws: (any Error).self) { try await db.read { tx in try await tx.execute("INSERT INTO t VALUES (2)", []) } }
        #expect(error is DatabaseError)
        try await db.close()
    }
}

/// A transaction kept past its block (what the API must survive, not what code should do).
private struct Escaped: @unchecked Sendable {
    let transaction: SQLiteTransaction
    init(_ transaction: SQLiteTransaction) { self.transaction = transaction }
}
