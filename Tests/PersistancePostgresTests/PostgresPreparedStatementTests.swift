#if PostgreSQL
import Foundation
import Persistance
@testable import PersistancePostgres
import Testing

/// The statements a transaction's queries prepare on their connection (`PreparedStatementCache`),
/// seen from the server's `pg_prepared_statements` on a pool of one connection.
@Suite struct PostgresPreparedStatementTests {
    /// A database of one connection, so that every transaction sees the same prepared statements,
    /// and a fresh table `name(id BIGINT PRIMARY KEY, label TEXT)` holding rows 1 and 2.
    private func database() async throws -> (PostgresDatabase, String) {
        let db = try await TestServer.open { $0.maximumConnections = 1 }
        let table = uniqueTableName("prepared")
        try await db.write { tx in
            try await tx.execute("CREATE TABLE \(table)(id BIGINT PRIMARY KEY, label TEXT)")
            try await tx.execute("INSERT INTO \(table) VALUES (1, 'one'), (2, 'two')")
        }
        return (db, table)
    }

    private func drop(_ table: String, _ db: PostgresDatabase) async throws {
        try await db.write { tx in try await tx.execute("DROP TABLE \(table)") }
        await db.close()
    }

    /// The parameter types of each statement the connection prepared for `sql`.
    private func preparedTypes(of sql: String, in db: PostgresDatabase) async throws -> [String] {
        try await db.read { tx in
            try await tx.fetchAll(
                "SELECT parameter_types::text FROM pg_prepared_statements WHERE statement = $1 ORDER BY 1", [.text(sql)]
            ).map { try $0.value(at: 0, as: String.self) }
        }
    }

    @Test func aStatementRunTwiceIsPreparedOnce() async throws {
        let (db, table) = try await database()
        let sql = "SELECT label FROM \(table) WHERE id = $1"
        let first = try await db.read { tx in try await tx.fetchOne(sql, [1])?.value(at: 0, as: String.self) }
        let second = try await db.write { tx in try await tx.fetchOne(sql, [2])?.value(at: 0, as: String.self) }
        #expect(first == "one")
        #expect(second == "two")
        #expect(try await preparedTypes(of: sql, in: db) == ["{bigint}"])
        try await drop(table, db)
    }

    @Test func aStatementPreparedInARolledBackTransactionStaysPrepared() async throws {
        let (db, table) = try await database()
        let sql = "SELECT label FROM \(table) WHERE id = $1"
        struct Failure: Error {}
        let error = await failure {
            try await db.write { tx in
                _ = try await tx.fetchOne(sql, [1])
                throw Failure()
            }
        }
        #expect(error is Failure)
        #expect(try await preparedTypes(of: sql, in: db) == ["{bigint}"])
        let label = try await db.read { tx in try await tx.fetchOne(sql, [2])?.value(at: 0, as: String.self) }
        #expect(label == "two")
        #expect(try await preparedTypes(of: sql, in: db) == ["{bigint}"])
        try await drop(table, db)
    }

    @Test func theSameSQLWithABlobAndWithTextIsTwoStatements() async throws {
        let db = try await TestServer.open { $0.maximumConnections = 1 }
        let sql = "SELECT $1 AS value"
        let blob = Data([0, 1, 0xFF])
        let values = try await db.read { tx in
            [
                try await tx.fetchOne(sql, [.blob(blob)])?[0],
                try await tx.fetchOne(sql, [.text("text")])?[0],
                try await tx.fetchOne(sql, [.null])?[0],
                try await tx.fetchOne(sql, [.blob(Data([7]))])?[0],
            ]
        }
        #expect(values == [.blob(blob), .text("text"), .null, .blob(Data([7]))])
        // A blob is typed BYTEA; text and NULL go untyped, which the server reads as text here.
        #expect(try await preparedTypes(of: sql, in: db) == ["{bytea}", "{text}"])
        await db.close()
    }

    @Test func theLeastRecentlyUsedStatementIsDeallocated() async throws {
        let db = try await TestServer.open { $0.maximumConnections = 1 }
        let capacity = PreparedStatementCache.defaultCapacity
        let marker = uniqueTableName("evict")
        func sql(_ number: Int) -> String { "SELECT \(number) AS \(marker)" }
        let count = "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE $1"
        let prepared = try await db.read { tx in
            for number in 0..<capacity - 1 { _ = try await tx.fetchOne(sql(number)) }
            // The first statement used again: the second is now the least recently used.
            _ = try await tx.fetchOne(sql(0))
            // The counting statement fills the cache; the next one evicts the second statement.
            let full = try await tx.fetchOne(count, [.text("% AS \(marker)")])?.value(at: 0, as: Int.self)
            _ = try await tx.fetchOne(sql(capacity))
            return full
        }
        #expect(prepared == capacity - 1)
        // This query is new too: it evicts the third statement, now the least recently used.
        let remaining = try await db.read { tx in
            try await tx.fetchAll(
                "SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1", [.text("% AS \(marker)")]
            ).map { try $0.value(at: 0, as: String.self) }
        }
        #expect(Set(remaining) == Set([sql(0), sql(capacity)] + (3..<capacity - 1).map(sql)))
        #expect(remaining.count == capacity - 2)
        await db.close()
    }

    @Test func aSchemaChangeFromAnotherConnectionPreparesTheStatementAgain() async throws {
        let (db, table) = try await database()
        let sql = "SELECT * FROM \(table) ORDER BY id"
        let before = try await db.read { tx in try await tx.fetchAll(sql) }
        #expect(before.first?.columnNames == ["id", "label"])
        // Another instance changes the table: the statement prepared on db's connection is stale
        // (SQLSTATE 0A000 "cached plan must not change result type"); db runs the read again.
        let other = try await TestServer.open()
        try await other.write { tx in try await tx.execute("ALTER TABLE \(table) ADD COLUMN extra INTEGER DEFAULT 7") }
        await other.close()
        let after = try await db.read { tx in try await tx.fetchAll(sql) }
        #expect(after.first?.columnNames == ["id", "label", "extra"])
        #expect(try after.first?.value(at: 2, as: Int.self) == 7)
        // The stale statement was deallocated when the next one ran.
        #expect(try await preparedTypes(of: sql, in: db) == ["{}"])
        try await drop(table, db)
    }

    @Test func aParameterTypeChangedByAnotherConnectionPreparesTheStatementAgain() async throws {
        let (db, table) = try await database()
        let sql = "SELECT id FROM \(table) WHERE label = $1"
        try await db.write { tx in try await tx.execute("UPDATE \(table) SET label = (id + 6)::text") }
        let before = try await db.read { tx in try await tx.fetchOne(sql, [.text("7")])?.value(at: 0, as: Int.self) }
        #expect(before == 1)
        #expect(try await preparedTypes(of: sql, in: db) == ["{text}"])
        // The statement's parameter stays TEXT: against an INTEGER column it no longer fits
        // (SQLSTATE 42883, no operator integer = text); db prepares it again, untyped.
        let other = try await TestServer.open()
        try await other.write { tx in
            try await tx.execute("ALTER TABLE \(table) ALTER COLUMN label TYPE INTEGER USING label::integer")
        }
        await other.close()
        let after = try await db.read { tx in try await tx.fetchOne(sql, [.text("7")])?.value(at: 0, as: Int.self) }
        #expect(after == 1)
        #expect(try await preparedTypes(of: sql, in: db) == ["{integer}"])
        try await drop(table, db)
    }

    @Test func aSchemaChangeInTheSameTransactionPreparesTheStatementAgain() async throws {
        let (db, table) = try await database()
        let sql = "SELECT * FROM \(table) WHERE id = $1"
        let columns = try await db.write { tx in
            let before = try await tx.fetchOne(sql, [1])
            try await tx.execute("ALTER TABLE \(table) ADD COLUMN extra INTEGER DEFAULT 7")
            let after = try await tx.fetchOne(sql, [1])
            return [before?.columnNames, after?.columnNames]
        }
        #expect(columns == [["id", "label"], ["id", "label", "extra"]])
        try await drop(table, db)
    }

    @Test func addingATableOrAnIndexKeepsTheStatementsPrepared() async throws {
        let (db, table) = try await database()
        let sql = "SELECT label FROM \(table) WHERE id = $1"
        let added = uniqueTableName("added")
        let names = "SELECT name FROM pg_prepared_statements WHERE statement = $1"
        let (labels, before, after) = try await db.write { tx in
            let first = try await tx.fetchOne(sql, [1])?.value(at: 0, as: String.self)
            let before = try await tx.fetchAll(names, [.text(sql)])
            // What every declared table and document collection runs when it opens.
            try await tx.execute("CREATE TABLE IF NOT EXISTS \(table)(id BIGINT PRIMARY KEY, label TEXT)")
            try await tx.execute("CREATE TABLE \(added)(id BIGINT)")
            try await tx.execute("CREATE INDEX IF NOT EXISTS \(table)_label ON \(table)(label)")
            let second = try await tx.fetchOne(sql, [2])?.value(at: 0, as: String.self)
            return ([first, second], before, try await tx.fetchAll(names, [.text(sql)]))
        }
        #expect(labels == ["one", "two"])
        // The same statement ran both times: it was not deallocated and prepared again.
        #expect(before.count == 1)
        #expect(after == before)
        // A change to what a statement reads deallocates them.
        try await db.write { tx in try await tx.execute("DROP TABLE \(added)") }
        #expect(try await preparedTypes(of: sql, in: db) == [])
        try await drop(table, db)
    }

    @Test(arguments: [true, false])
    func anAppsOwnDeallocationIsFollowedByAFreshPreparation(deallocatesAll: Bool) async throws {
        let (db, table) = try await database()
        let sql = "SELECT label FROM \(table) WHERE id = $1"
        let labels = try await db.write { tx in
            let before = try await tx.fetchOne(sql, [1])?.value(at: 0, as: String.self)
            let name = try await tx.fetchOne("SELECT name FROM pg_prepared_statements WHERE statement = $1", [.text(sql)])
            let statement = try name?.value(at: 0, as: String.self) ?? "none prepared"
            try await tx.execute(deallocatesAll ? "DEALLOCATE ALL" : "DEALLOCATE \"\(statement)\"")
            let after = try await tx.fetchOne(sql, [2])?.value(at: 0, as: String.self)
            return [before, after]
        }
        let later = try await db.read { tx in try await tx.fetchOne(sql, [1])?.value(at: 0, as: String.self) }
        #expect(labels == ["one", "two"])
        #expect(later == "one")
        try await drop(table, db)
    }

    @Test func aFailingPreparationFailsTheTransactionAndIsNotKept() async throws {
        let (db, table) = try await database()
        let syntaxError = await failure {
            try await db.write { tx in
                try await tx.execute("INSERT INTO \(table) VALUES (3, 'three')")
                _ = try await tx.fetchAll("SELEC label FROM \(table)")
            }
        }
        let error = try #require(syntaxError as? DatabaseError)
        #expect(error.kind == .postgres)
        #expect(error.sqlState == "42601")
        #expect(error.sql == "SELEC label FROM \(table)")
        let ids = try await db.read { tx in
            try await tx.fetchAll("SELECT id FROM \(table) ORDER BY id").map { try $0.value(at: 0, as: Int.self) }
        }
        #expect(ids == [1, 2])

        // A statement that failed to prepare (its table is missing) prepares afresh once it can.
        let missing = uniqueTableName("missing")
        let sql = "SELECT count(*) FROM \(missing)"
        let undefined = await failure { _ = try await db.read { tx in try await tx.fetchOne(sql) } }
        #expect((undefined as? DatabaseError)?.sqlState == "42P01")
        // Created by another instance, so that nothing clears db's statements meanwhile.
        let other = try await TestServer.open()
        try await other.write { tx in try await tx.execute("CREATE TABLE \(missing)(id BIGINT)") }
        let count = try await db.read { tx in try await tx.fetchOne(sql)?.value(at: 0, as: Int.self) }
        #expect(count == 0)
        try await other.write { tx in try await tx.execute("DROP TABLE \(missing)") }
        await other.close()
        try await drop(table, db)
    }

    @Test func theCacheReusesNamesAndEvictsTheLeastRecentlyUsed() {
        let cache = PreparedStatementCache(capacity: 2)
        let a = PreparedStatementCache.Key(sql: "SELECT $1", parameterTypes: [.null])
        let aBlob = PreparedStatementCache.Key(sql: "SELECT $1", parameterTypes: [.bytea])
        let b = PreparedStatementCache.Key(sql: "SELECT 2", parameterTypes: [])
        #expect(cache.lease(a) == .init(name: "persistance_1", isNew: true, evicted: []))
        #expect(cache.lease(a) == .init(name: "persistance_1", isNew: false, evicted: []))
        #expect(cache.lease(aBlob) == .init(name: "persistance_2", isNew: true, evicted: []))
        // a was used after aBlob: aBlob is the least recently used.
        #expect(cache.lease(a).isNew == false)
        #expect(cache.lease(b) == .init(name: "persistance_3", isNew: true, evicted: ["persistance_2"]))
        #expect(cache.count == 2)
        // A dropped statement comes back under a new name; a name is never reused.
        cache.drop(a, named: "persistance_1")
        #expect(cache.lease(a) == .init(name: "persistance_4", isNew: true, evicted: []))
        // Dropping or retiring under a name the key no longer has changes nothing.
        cache.drop(a, named: "persistance_1")
        cache.retire(a, named: "persistance_1")
        #expect(cache.lease(a) == .init(name: "persistance_4", isNew: false, evicted: []))
        // A retired statement is deallocated by the next lease, whatever its key.
        cache.retire(a, named: "persistance_4")
        #expect(cache.lease(b) == .init(name: "persistance_3", isNew: false, evicted: ["persistance_4"]))
        #expect(cache.lease(b).evicted == [])
        #expect(cache.lease(a) == .init(name: "persistance_5", isNew: true, evicted: []))
        cache.retire(a, named: "persistance_5")
        // Everything the server holds: b's statement and the retired one.
        #expect(cache.removeAll() == 2)
        #expect(cache.count == 0)
        #expect(cache.lease(b) == .init(name: "persistance_6", isNew: true, evicted: []))
    }
}
#endif
