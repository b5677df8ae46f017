import Foundation
import Testing

@testable import Persistance

@Suite struct DatabaseErrorTests {
    @Test func uniqueViolationCanBeCaughtByCode() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(name TEXT UNIQUE); INSERT INTO t VALUES ('a')")
        var caught = false
        do {
            try conn.execute("INSERT INTO t VALUES (?)", ["a"])
        } catch ResultCode.constraintUnique {
            caught = true
        }
        #expect(caught)
        do {
            try conn.execute("INSERT INTO t VALUES (?)", ["a"])
        } catch let error as DatabaseError {
            #expect(error.resultCode == .constraint)
            #expect(error.extendedResultCode == .constraintUnique)
            #expect(error.message.contains("UNIQUE"))
        }
    }

    @Test func errorsNeverContainBoundValues() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(secret TEXT NOT NULL UNIQUE)")
        let secret = "hunter2-do-not-log"
        try conn.execute("INSERT INTO t VALUES (?)", [secret])
        do {
            try conn.execute("INSERT INTO t VALUES (?)", [secret])
            Issue.record("expected a constraint error")
        } catch let error as DatabaseError {
            #expect(!error.description.contains(secret))
            #expect(!String(reflecting: error).contains(secret))
            #expect(error.sql == "INSERT INTO t VALUES (?)")
        }
    }

    @Test func kindsMatchInCatchPatterns() throws {
        let conn = try Connection.inMemory()
        var caught = false
        do {
            _ = try conn.fetchOne(Int.self, "SELECT NULL")
        } catch DatabaseError.Kind.decoding {
            caught = true
        }
        #expect(caught)
        #expect(!(ResultCode.constraint ~= DatabaseError.misuse("x")))
    }

    @Test func resultCodesDescribeThemselves() {
        #expect(ResultCode.constraintUnique.primary == .constraint)
        #expect(ResultCode.busy.description.contains("locked"))
    }
}
