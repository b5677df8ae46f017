#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Testing

@Suite struct PostgresTransactionTests {
    /// A database with a fresh table `name(id BIGINT PRIMARY KEY, class INTEGER, value INTEGER)`.
    private func database(
        _ adjust: (inout PostgresConfiguration) -> Void = { _ in }
    ) async throws -> (PostgresDatabase, String) {
        let db = try await TestServer.open(adjust)
        let table = uniqueTableName()
        try await db.write { tx in
            try await tx.execute("CREATE TABLE \(table)(id BIGINT PRIMARY KEY, class INTEGER, value INTEGER)")
        }
        return (db, table)
    }

    private func drop(_ table: String, _ db: PostgresDatabase) async throws {
        try await db.write { tx in try await tx.execute("DROP TABLE \(table)") }
        await db.close()
    }

    private func count(_ table: String, _ db: PostgresDatabase) async throws -> Int {
        try await db.read { tx in try await tx.fetchOne("SELECT count(*) FROM \(table)")!.value(at: 0, as: Int.self) }
    }

    @Test func aWriteCommitsAndAFailingWriteRollsBack() async throws {
        let (db, table) = try await database()
        try await db.write { tx in try await tx.execute("INSERT INTO \(table)(id) VALUES ($1)", [1]) }
        struct Failure: Error {}
        let error = await failure {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table)(id) VALUES ($1)", [2])
                throw Failure()
            }
        }
        #expect(error is Failure)
        #expect(try await count(table, db) == 1)
        try await drop(table, db)
    }

    @Test func aReadRunsInAReadOnlyTransaction() async throws {
        let (db, table) = try await database()
        let error = await failure {
            _ = try await db.read { tx in try await tx.execute("INSERT INTO \(table)(id) VALUES (1)") }
        }
        #expect((error as? DatabaseError)?.sqlState == "25006")
        #expect(try await db.read { tx in try await tx.fetchOne("SHOW transaction_read_only")!.value(at: 0, as: String.self) }
            == "on")
        #expect(try await db.write { tx in try await tx.fetchOne("SHOW transaction_read_only")!.value(at: 0, as: String.self) }
            == "off")
        try await drop(table, db)
    }

    @Test func nestedBlocksUseSavepoints() async throws {
        let (db, table) = try await database()
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(table)(id) VALUES (1)")
            // A failing statement inside a savepoint is undone alone; the transaction goes on.
            let duplicate = await failure {
                try await tx.savepoint { tx in
                    try await tx.execute("INSERT INTO \(table)(id) VALUES (2)")
                    try await tx.execute("INSERT INTO \(table)(id) VALUES (1)")
                }
            }
            #expect((duplicate as? DatabaseError)?.condition == .uniqueViolation)
            try await tx.savepoint { tx in
                try await tx.execute("INSERT INTO \(table)(id) VALUES (3)")
                try await tx.savepoint { tx in try await tx.execute("INSERT INTO \(table)(id) VALUES (4)") }
            }
        }
        let ids = try await db.read { tx in
            try await tx.fetchAll("SELECT id FROM \(table) ORDER BY id").map { try $0.value(at: 0, as: Int.self) }
        }
        #expect(ids == [1, 3, 4])
        try await drop(table, db)
    }

    @Test func aBlockThatSwallowsAFailedStatementIsRolledBack() async throws {
        let (db, table) = try await database()
        let error = await failure {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table)(id) VALUES (1)")
                _ = try? await tx.execute("INSERT INTO \(table)(id) VALUES (1)")
            }
        }
        #expect((error as? DatabaseError)?.sqlState == "25P02")
        #expect(try await count(table, db) == 0)
        try await drop(table, db)
    }

    /// Two SERIALIZABLE transactions in a write skew: each reads one class and writes into the
    /// other, both reads before either write, so one of them must fail with SQLSTATE 40001.
    private func writeSkew(_ db: PostgresDatabase, _ table: String, attempts: Counter) async -> [Result<Void, any Error>] {
        let barrier = Barrier(parties: 2)
        func transfer(from: Int, to: Int, id: Int) async throws {
            try await db.write(isolationLevel: .serializable) { tx in
                attempts.increment()
                let sum = try await tx.fetchOne("SELECT coalesce(sum(value), 0) FROM \(table) WHERE class = $1", [.integer(Int64(from))])!
                    .value(at: 0, as: Int.self)
                await barrier.arrive()
                try await tx.execute("INSERT INTO \(table) VALUES ($1, $2, $3)", [.integer(Int64(id)), .integer(Int64(to)), .integer(Int64(sum + 1))])
            }
        }
        async let first = outcome { try await transfer(from: 1, to: 2, id: 1) }
        async let second = outcome { try await transfer(from: 2, to: 1, id: 2) }
        return await [first, second]
    }

    private func outcome(_ operation: () async throws -> Void) async -> Result<Void, any Error> {
        do {
            try await operation()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    @Test func aSerializationFailureIsRetried() async throws {
        let (db, table) = try await database()
        let attempts = Counter()
        let results = await writeSkew(db, table, attempts: attempts)
        for result in results { try result.get() }
        #expect(attempts.value >= 3)
        #expect(try await count(table, db) == 2)
        try await drop(table, db)
    }

    @Test func retriesAreBounded() async throws {
        let (db, table) = try await database { $0.transactionRetries = 0 }
        let attempts = Counter()
        let results = await writeSkew(db, table, attempts: attempts)
        let errors = results.compactMap { result -> DatabaseError? in
            if case .failure(let error) = result { return error as? DatabaseError }
            return nil
        }
        #expect(attempts.value == 2)
        #expect(errors.count == 1)
        #expect(errors.first?.condition == .transactionConflict)
        #expect(errors.first?.sqlState == "40001")
        #expect(try await count(table, db) == 1)
        try await drop(table, db)
    }

    @Test func cancellingTheTaskCancelsTheRunningStatement() async throws {
        let db = try await TestServer.open()
        let marker = "persistance_cancel_\(UUID().uuidString.prefix(8))"
        let task = Task {
            try await db.read { tx in try await tx.execute("SELECT pg_sleep(120) AS \(marker)") }
        }
        // The statement takes two minutes.
        try await expectCancelled(task, after: .milliseconds(100), within: .seconds(60))
        let stillRunning = try await db.read { tx in
            try await tx.fetchOne(
                "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()",
                [.text("%AS \(marker)%")])!.value(at: 0, as: Int.self)
        }
        #expect(stillRunning == 0)
        // The pool's connections still work.
        #expect(try await db.read { tx in try await tx.fetchOne("SELECT 1")!.value(at: 0, as: Int.self) } == 1)
        await db.close()
    }

    @Test func aStatementTimeoutIsATypedError() async throws {
        let db = try await TestServer.open { $0.statementTimeout = .milliseconds(200) }
        let start = ContinuousClock.now
        let error = await failure { _ = try await db.read { tx in try await tx.execute("SELECT pg_sleep(120)") } }
        let databaseError = try #require(error as? DatabaseError)
        #expect(databaseError.kind == .statementTimeout)
        #expect(databaseError.sqlState == "57014")
        // Far less than the statement's two minutes, however loaded the machine is.
        #expect(ContinuousClock.now - start < .seconds(60))
        await db.close()
    }

    @Test func aConnectionLostMidTransactionIsTypedAndNothingIsApplied() async throws {
        let (db, table) = try await database()
        let error = await failure {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table)(id) VALUES (1)")
                let pid = try await tx.fetchOne("SELECT pg_backend_pid()")!.value(at: 0, as: Int32.self)
                try await db.write { other in try await other.execute("SELECT pg_terminate_backend($1)", [.integer(Int64(pid))]) }
                try await tx.execute("INSERT INTO \(table)(id) VALUES (2)")
            }
        }
        #expect((error as? DatabaseError)?.kind == .connectionLost)
        #expect(try await count(table, db) == 0)
        try await drop(table, db)
    }

    @Test func aConnectionLostWhileRowsStreamFailsTheFetch() async throws {
        try await expectConnectionLost { tx, terminate in
            let killer = Task {
                try await Task.sleep(for: .milliseconds(500))
                try await terminate()
            }
            // Rows wide enough to be sent as they are made, one every 10 ms: 30 s unless cut.
            _ = try await tx.fetchAll(
                "SELECT g, repeat('x', 4000) AS filler, pg_sleep(0.01) IS NULL AS slept FROM generate_series(1, 3000) AS g")
            killer.cancel()
        }
    }

    /// A prepared query sent just as, or after, the connection closes: postgres-nio drops a
    /// statement written to a closed channel, so this would wait forever if the query were
    /// sent without looking at the connection on its event loop first.
    @Test(arguments: [0, 300])
    func aQueryOnAConnectionJustLostFailsAtOnce(afterMilliseconds delay: Int) async throws {
        try await expectConnectionLost { tx, terminate in
            try await terminate()
            try await Task.sleep(for: .milliseconds(delay))
            for key in 0..<50 { _ = try await tx.fetchOne("SELECT $1::bigint + 1", [.integer(Int64(key))]) }
        }
    }

    /// Runs `body` in a read of a database of its own, `terminate` ending the read's connection
    /// from another database, and expects the read to fail with `connectionLost`, well before
    /// the 30 s a statement of these tests would otherwise take.
    private func expectConnectionLost(
        _ body: (PostgresTransaction, _ terminate: @escaping @Sendable () async throws -> Void) async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let db = try await TestServer.open()
        let admin = try await TestServer.open()
        let start = ContinuousClock.now
        let error = await failure {
            try await db.read { tx in
                let pid = try await tx.fetchOne("SELECT pg_backend_pid()")!.value(at: 0, as: Int64.self)
                try await body(tx) {
                    _ = try await admin.write { other in
                        try await other.execute("SELECT pg_terminate_backend($1)", [.integer(pid)])
                    }
                }
            }
        }
        #expect((error as? DatabaseError)?.kind == .connectionLost, sourceLocation: sourceLocation)
        #expect(ContinuousClock.now - start < .seconds(20), sourceLocation: sourceLocation)
        await db.close()
        await admin.close()
    }

    @Test func aPooledConnectionThatDiedWhileIdleIsReplaced() async throws {
        let db = try await TestServer.open()
        let admin = try await TestServer.open()
        let pid = try await db.read { tx in try await tx.fetchOne("SELECT pg_backend_pid()")!.value(at: 0, as: Int32.self) }
        try await admin.write { tx in try await tx.execute("SELECT pg_terminate_backend($1)", [.integer(Int64(pid))]) }
        let other = try await db.read { tx in try await tx.fetchOne("SELECT pg_backend_pid()")!.value(at: 0, as: Int32.self) }
        #expect(other != pid)
        await db.close()
        await admin.close()
    }
}
#endif
