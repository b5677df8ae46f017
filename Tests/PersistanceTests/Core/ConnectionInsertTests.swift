import Foundation
import Testing

@testable import Persistance

@Suite struct ConnectionInsertTests {
    @Test func returnsTheRowIDOfTheRowItInserted() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            #expect(try conn.executeInsert("INSERT INTO t(name) VALUES (?)", ["Ann"]) == 1)
            #expect(try conn.executeInsert("  insert into t(id, name) values (?, ?)", [40, "Bob"]) == 40)
            #expect(try conn.executeInsert("REPLACE INTO t(name) VALUES ('Cy')") == 41)
            #expect(try conn.executeInsert("WITH n(x) AS (SELECT 'Di') INSERT INTO t(name) SELECT x FROM n") == 42)
        }
    }

    @Test func returnsNilWhenNothingWasInserted() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
            #expect(try conn.executeInsert("INSERT INTO t(name) VALUES ('Ann')") == 1)
            #expect(try conn.executeInsert("INSERT OR IGNORE INTO t(name) VALUES ('Ann')") == nil)
            #expect(try conn.executeInsert("INSERT INTO t(name) SELECT name FROM t WHERE 0") == nil)
        }
    }

    @Test func refusesOtherStatementsAndKeepsTheirErrors() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            let notInsert = #expect(throws: DatabaseError.self) { try conn.executeInsert("UPDATE t SET name = 'x'") }
            #expect(notInsert?.kind == .invalidArguments)
            let failed = #expect(throws: DatabaseError.self) { try conn.executeInsert("INSERT INTO t(name) VALUES (NULL)") }
            #expect(failed?.extendedResultCode == .constraintNotNull)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
        }
    }
}
