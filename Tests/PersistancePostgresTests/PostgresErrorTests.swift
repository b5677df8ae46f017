#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Testing

/// Server errors carry their SQLSTATE and the same portable conditions as SQLite's.
@Suite struct PostgresErrorTests {
    private func error(of sql: String, _ arguments: [DatabaseValue] = []) async throws -> DatabaseError {
        let db = try await TestServer.open()
        let parent = uniqueTableName("parent")
        let table = uniqueTableName()
        try await db.write { tx in
            try await tx.execute("CREATE TABLE \(parent)(id BIGINT PRIMARY KEY)")
            try await tx.execute("""
                CREATE TABLE \(table)(id BIGINT PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n > 0),
                                      parent BIGINT REFERENCES \(parent)(id))
                """)
            try await tx.execute("INSERT INTO \(table)(id, name) VALUES (1, 'taken-secret-value')")
        }
        let statement = sql.replacingOccurrences(of: "$table", with: table)
        let thrown = await failure { _ = try await db.write { tx in try await tx.execute(statement, arguments) } }
        try await db.write { tx in try await tx.execute("DROP TABLE \(table), \(parent)") }
        await db.close()
        return try #require(thrown as? DatabaseError)
    }

    @Test func aUniqueViolationHasItsConditionAndNoValue() async throws {
        let error = try await error(of: "INSERT INTO $table(id, name) VALUES (2, $1)", ["taken-secret-value"])
        #expect(error.kind == .postgres)
        #expect(error.sqlState == "23505")
        #expect(error.condition == .uniqueViolation)
        #expect(error.sql?.hasPrefix("INSERT INTO") == true)
        #expect(!error.description.contains("taken-secret-value"))
        #expect(!String(reflecting: error).contains("taken-secret-value"))
    }

    @Test func constraintFailuresHaveTheSameConditionsAsOnSQLite() async throws {
        #expect(try await error(of: "INSERT INTO $table(id, name) VALUES (1, 'other')").condition == .uniqueViolation)
        #expect(try await error(of: "INSERT INTO $table(id, name) VALUES (2, NULL)").condition == .notNullViolation)
        #expect(try await error(of: "INSERT INTO $table(id, name, n) VALUES (2, 'b', 0)").condition == .checkViolation)
        #expect(try await error(of: "INSERT INTO $table(id, name, parent) VALUES (2, 'b', 7)").condition == .foreignKeyViolation)
        let syntax = try await error(of: "SELEC 1")
        #expect(syntax.sqlState == "42601")
        #expect(syntax.condition == nil)
    }

    @Test func aConditionCanBeCaughtByPattern() async throws {
        let thrown: any Error = try await error(of: "INSERT INTO $table(id, name) VALUES (1, 'other')")
        var caught = false
        do {
            throw thrown
        } catch DatabaseError.Condition.uniqueViolation {
            caught = true
        } catch {}
        #expect(caught)
    }
}
#endif
