#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Testing

/// `PostgresDatabase` and `PostgresTransaction` as the portable API's `AsyncDatabase` and
/// `DatabaseTransaction`.
@Suite struct PostgresPortableTests {
    /// A database with a fresh table `name(id BIGINT identity key, name TEXT UNIQUE, score BIGINT)`.
    private func database() async throws -> (PostgresDatabase, String) {
        let db = try await TestServer.open()
        let table = uniqueTableName("portable")
        try await db.write { tx in
            let key = tx.dialect.columnType(.integer, primaryKey: .autoincrement)
            try await tx.execute("CREATE TABLE \(table)(id \(key), name TEXT UNIQUE, score BIGINT)")
        }
        return (db, table)
    }

    private func drop(_ table: String, _ db: PostgresDatabase) async throws {
        try await db.write { tx in try await tx.execute("DROP TABLE IF EXISTS \(table)") }
        await db.close()
    }

    /// Portable code: knows nothing of the engine.
    private func names(in table: String, of db: some AsyncDatabase) async throws -> [String] {
        try await db.read { tx in
            try await tx.fetchAll("SELECT name FROM \(table) ORDER BY id", []).map { try $0.value(at: 0, as: String.self) }
        }
    }

    @Test func portableCodeRunsOnPostgreSQL() async throws {
        let (db, table) = try await database()
        func register(_ name: String, in db: some AsyncDatabase) async throws -> Int64? {
            try await db.write { tx in
                try await tx.insert("INSERT INTO \(table)(name) VALUES (\(tx.dialect.numberedPlaceholder(1)))",
                                    [.text(name)], returningKey: "id")
            }
        }
        #expect(try await register("Ann", in: db) == 1)
        #expect(try await register("Bob", in: db) == 2)
        #expect(try await names(in: table, of: db) == ["Ann", "Bob"])
        #expect(PostgresDatabase.Transaction.Dialect.self == PostgresDialect.self)
        try await drop(table, db)
    }

    @Test func aReadSeesOneSnapshotWhateverCommitsMeanwhile() async throws {
        let (db, table) = try await database()
        let other = try await TestServer.open()
        func count(_ tx: PostgresTransaction) async throws -> Int {
            try await tx.fetchAll("SELECT count(*) FROM \(table)", [])[0].value(at: 0, as: Int.self)
        }
        let (before, after) = try await db.read { tx in
            let before = try await count(tx)
            try await other.write { tx in try await tx.execute("INSERT INTO \(table)(name) VALUES ('late')", []) }
            return (before, try await count(tx))
        }
        #expect(before == 0)
        #expect(after == 0)
        #expect(try await db.read { tx in try await count(tx) } == 1)
        await other.close()
        try await drop(table, db)
    }

    @Test func executeReturnsTheRowsItChanged() async throws {
        let (db, table) = try await database()
        let counts = try await db.write { tx in
            [
                try await tx.execute("INSERT INTO \(table)(name, score) VALUES ('a', 1), ('b', 2), ('c', 3)"),
                try await tx.execute("UPDATE \(table) SET score = score + 1 WHERE score >= $1", [2]),
                try await tx.execute("DELETE FROM \(table) WHERE name = $1", ["a"]),
                try await tx.execute("SELECT * FROM \(table)"),
                try await tx.execute("CREATE INDEX \(table)_score ON \(table)(score)"),
                try await tx.execute("UPDATE \(table) SET score = 0 WHERE false"),
            ]
        }
        #expect(counts == [3, 2, 1, 0, 0, 0])
        try await drop(table, db)
    }

    @Test func insertReturnsTheKeyItWasGivenOrNil() async throws {
        let (db, table) = try await database()
        try await db.write { tx in
            let generated = try await tx.insert("INSERT INTO \(table)(name) VALUES ($1)", ["a"], returningKey: "id")
            let given = try await tx.insert("INSERT INTO \(table)(id, name) VALUES ($1, $2)", [40, "b"], returningKey: "id")
            // Nothing inserted: no key.
            let none = try await tx.insert(
                "INSERT INTO \(table)(name) VALUES ($1) ON CONFLICT (name) DO NOTHING", ["a"], returningKey: "id")
            // No key column: PostgreSQL has no row id to give.
            let keyless = try await tx.insert("INSERT INTO \(table)(name) VALUES ($1)", ["c"], returningKey: nil)
            #expect([generated, given, none, keyless] == [1, 40, nil, nil])
            let notAnInteger = await failure {
                _ = try await tx.insert("INSERT INTO \(table)(name) VALUES ($1)", ["d"], returningKey: "name")
            }
            #expect((notAnInteger as? DatabaseError)?.kind == .decoding)
            #expect((notAnInteger as? DatabaseError)?.column == "name")
        }
        #expect(try await names(in: table, of: db) == ["a", "c", "d", "b"])
        try await drop(table, db)
    }

    @Test func forEachRowStreamsWithBackPressure() async throws {
        let db = try await TestServer.open()
        let admin = try await TestServer.open()
        let total = 100_000
        var seen = 0
        var sum = 0
        let marker = "persistance_stream_\(UUID().uuidString.prefix(8))"
        try await db.read { tx in
            // 100,000 rows of 1 kB: 100 MB if they were all read at once.
            try await tx.forEachRow(
                "SELECT x AS \(marker), repeat('x', 1000) AS padding FROM generate_series(1, $1) x", [.integer(Int64(total))]
            ) { row in
                if seen == 0 {
                    // While the first row is held, the server waits for the client to read.
                    try await Task.sleep(for: .milliseconds(300))
                    let waiting = try await admin.read { other in
                        try await other.fetchOne(
                            "SELECT wait_event FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()",
                            [.text("%AS \(marker),%")])
                    }
                    #expect(waiting?[0] == "ClientWrite")
                }
                seen += 1
                sum += try row.value(named: marker, as: Int.self)
            }
        }
        #expect(seen == total)
        #expect(sum == total * (total + 1) / 2)
        await db.close()
        await admin.close()
    }

    @Test func throwingFromForEachRowStopsAndTheTransactionGoesOn() async throws {
        let (db, table) = try await database()
        struct Enough: Error {}
        var seen = 0
        try await db.write { tx in
            let error = await failure {
                try await tx.forEachRow("SELECT x FROM generate_series(1, 50000) x", []) { _ in
                    seen += 1
                    if seen == 3 { throw Enough() }
                }
            }
            #expect(error is Enough)
            // A row that does not convert stops it the same way.
            let decoding = await failure {
                try await tx.forEachRow("SELECT '1 day'::interval AS span", []) { _ in }
            }
            #expect((decoding as? DatabaseError)?.column == "span")
            try await tx.execute("INSERT INTO \(table)(name) VALUES ('kept')")
        }
        #expect(seen == 3)
        #expect(try await names(in: table, of: db) == ["kept"])
        try await drop(table, db)
    }

    @Test func aStatementWhileForEachRowReadsIsAMisuseNotADeadlock() async throws {
        let (db, table) = try await database()
        try await db.write { tx in
            let error = await failure {
                try await tx.forEachRow("SELECT x FROM generate_series(1, 3) x", []) { row in
                    try await tx.execute("INSERT INTO \(table)(score) VALUES ($1)", [row[0]])
                }
            }
            #expect((error as? DatabaseError)?.kind == .misuse)
            // Once the rows are read, the transaction goes on.
            try await tx.execute("INSERT INTO \(table)(name) VALUES ('after')")
        }
        #expect(try await names(in: table, of: db) == ["after"])
        try await drop(table, db)
    }

    @Test func theCatalogListsColumnsInOrderAndIndexes() async throws {
        let (db, table) = try await database()
        let mixedCase = uniqueTableName("Mixed Case")
        let catalogs = try await db.write { tx in
            try await tx.execute("CREATE INDEX \(table)_score ON \(table)(score)")
            try await tx.execute("ALTER TABLE \(table) ADD COLUMN added TEXT")
            try await tx.execute("ALTER TABLE \(table) DROP COLUMN score")
            try await tx.execute(#"CREATE TABLE "\#(mixedCase)"()"#)
            let exists = [
                try await tx.tableExists(table), try await tx.tableExists(mixedCase),
                try await tx.tableExists("no_such_table"), try await tx.tableExists("pg_class"),
            ]
            #expect(exists == [true, true, false, false])
            return [
                try await tx.tableCatalog(table), try await tx.tableCatalog(mixedCase),
                try await tx.tableCatalog("no_such_table"), try await tx.tableCatalog("pg_class"),
            ]
        }
        #expect(catalogs[0] == TableCatalog(columns: ["id", "name", "added"], indexes: ["\(table)_pkey", "\(table)_name_key"]))
        #expect(catalogs[1] == TableCatalog(columns: [], indexes: []))
        #expect(catalogs[2] == nil)
        #expect(catalogs[3] == nil)
        try await db.write { tx in try await tx.execute(#"DROP TABLE "\#(mixedCase)""#) }
        try await drop(table, db)
    }

    @Test func schemaChangesWaitForEachOther() async throws {
        let db = try await TestServer.open()
        let first = Barrier(parties: 2)
        async let holder: ContinuousClock.Instant = db.write { tx in
            try await tx.serializeSchemaChanges()
            await first.arrive()
            try await Task.sleep(for: .milliseconds(500))
            return ContinuousClock.now
        }
        await first.arrive()
        let acquired = try await db.write { tx in
            try await tx.serializeSchemaChanges()
            return ContinuousClock.now
        }
        #expect(try await holder <= acquired)
        // The lock ends with its transaction: a later one takes it without waiting (a lock
        // still held would fail it with SQLSTATE 55P03 once lock_timeout passes).
        try await db.write { tx in
            try await tx.execute("SET LOCAL lock_timeout = '20s'", [])
            try await tx.serializeSchemaChanges()
        }
        await db.close()
    }

    @Test func aConnectionLostDuringAPortableWriteLeavesNothingApplied() async throws {
        let (db, table) = try await database()
        let admin = try await TestServer.open()
        func importNames(into db: some AsyncDatabase, killing: @escaping (Int64) async throws -> Void) async throws {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table)(name) VALUES ('first')", [])
                let pid = try #require(try await tx.fetchAll("SELECT pg_backend_pid()", []).first).value(at: 0, as: Int64.self)
                try await killing(pid)
                try await tx.execute("INSERT INTO \(table)(name) VALUES ('second')", [])
            }
        }
        let error = await failure {
            try await importNames(into: db) { pid in
                _ = try await admin.write { tx in try await tx.execute("SELECT pg_terminate_backend($1)", [.integer(pid)]) }
            }
        }
        #expect((error as? DatabaseError)?.kind == .connectionLost)
        #expect(try await names(in: table, of: db) == [])
        await admin.close()
        try await drop(table, db)
    }

    @Test func aUniqueViolationNeverShowsTheBoundValue() async throws {
        let (db, table) = try await database()
        let secret = "secret-\(UUID().uuidString)"
        let error = await failure {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table)(name) VALUES ($1)", [.text(secret)])
                try await tx.execute("INSERT INTO \(table)(name) VALUES ($1)", [.text(secret)])
            }
        }
        let databaseError = try #require(error as? DatabaseError)
        #expect(databaseError.condition == .uniqueViolation)
        #expect(!databaseError.description.contains(secret))
        #expect(!String(reflecting: databaseError).contains(secret))
        try await drop(table, db)
    }
}
#endif
