import Foundation
import Testing

@testable import Persistance

/// The portable conditions SQLite failures map to (PersistancePostgresTests checks the SQLSTATE side
/// against a server).
@Suite struct DatabaseErrorConditionTests {
    /// The condition of the error `sql` throws on a fresh schema.
    private func condition(of sql: String) throws -> DatabaseError.Condition? {
        let conn = try Connection.inMemory()
        try conn.execute("PRAGMA foreign_keys = ON")
        try conn.execute("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CHECK (n > 0),
                           parent INTEGER REFERENCES parent(id));
            INSERT INTO t(id, name) VALUES (1, 'a');
            """)
        do {
            try conn.execute(sql)
        } catch let error as DatabaseError {
            return error.condition
        }
        Issue.record("expected \(sql) to fail")
        return nil
    }

    @Test func constraintFailuresHaveTheirCondition() throws {
        #expect(try condition(of: "INSERT INTO t(name) VALUES ('a')") == .uniqueViolation)
        #expect(try condition(of: "INSERT INTO t(id, name) VALUES (1, 'b')") == .uniqueViolation)
        #expect(try condition(of: "INSERT INTO t(name) VALUES (NULL)") == .notNullViolation)
        #expect(try condition(of: "INSERT INTO t(name, n) VALUES ('b', 0)") == .checkViolation)
        #expect(try condition(of: "INSERT INTO t(name, parent) VALUES ('b', 7)") == .foreignKeyViolation)
        #expect(try condition(of: "SELECT * FROM missing") == nil)
    }

    @Test func aConditionCanBeCaughtByPattern() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(name TEXT UNIQUE); INSERT INTO t VALUES ('a')")
        var caught = false
        do {
            try conn.execute("INSERT INTO t VALUES ('a')")
        } catch DatabaseError.Condition.uniqueViolation {
            caught = true
        }
        #expect(caught)
    }

    @Test func busyAndLockedAreTransactionConflicts() {
        #expect(DatabaseError(kind: .sqlite, extendedResultCode: .busy, message: "").condition == .transactionConflict)
        #expect(DatabaseError(kind: .sqlite, extendedResultCode: .locked, message: "").condition == .transactionConflict)
        #expect(DatabaseError(kind: .sqlite, extendedResultCode: .constraintTrigger, message: "").condition == nil)
        #expect(DatabaseError(kind: .misuse, message: "").condition == nil)
    }

    @Test func sqlStatesMapToTheSameConditions() {
        let expected: [String: DatabaseError.Condition?] = [
            "23505": .uniqueViolation, "23502": .notNullViolation, "23503": .foreignKeyViolation,
            "23514": .checkViolation, "40001": .transactionConflict, "40P01": .transactionConflict, "42P01": nil,
        ]
        for (state, condition) in expected {
            let error = DatabaseError(kind: .misuse, message: "m", sqlState: state)
            #expect(error.condition == condition, "SQLSTATE \(state)")
            #expect(error.description.contains("[SQLSTATE \(state)]"))
        }
    }
}
