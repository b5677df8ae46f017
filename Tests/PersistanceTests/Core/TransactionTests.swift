import Foundation
import Testing

@testable import Persistance

@Suite struct TransactionTests {
    struct Failure: Error {}

    let directory: TemporaryDirectory
    let conn: Connection

    init() throws {
        directory = try TemporaryDirectory()
        conn = try Connection(path: directory.path("tx.sqlite"))
        try conn.execute("CREATE TABLE t(name TEXT UNIQUE)")
    }

    private func names() throws -> [String] {
        try conn.fetchAll(String.self, "SELECT name FROM t ORDER BY name")
    }

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func commitsOnReturn(kind: TransactionKind) throws {
        let value = try conn.transaction(kind) {
            try conn.execute("INSERT INTO t VALUES ('a')")
            #expect(conn.isInTransaction)
            return 42
        }
        #expect(value == 42)
        #expect(!conn.isInTransaction)
        #expect(try names() == ["a"])
    }

    @Test func rollsBackOnThrow() throws {
        #expect(throws: Failure.self) {
            try conn.transaction {
                try conn.execute("INSERT INTO t VALUES ('a')")
                throw Failure()
            }
        }
        #expect(!conn.isInTransaction)
        #expect(try names().isEmpty)
    }

    @Test func rollsBackWhenAsked() throws {
        try conn.inTransaction {
            try conn.execute("INSERT INTO t VALUES ('a')")
            return .rollback
        }
        try conn.inTransaction {
            try conn.execute("INSERT INTO t VALUES ('b')")
            return .commit
        }
        #expect(try names() == ["b"])
    }

    @Test func innerFailureRollsBackOnlyTheInnerPart() throws {
        try conn.transaction {
            try conn.execute("INSERT INTO t VALUES ('outer')")
            #expect(throws: Failure.self) {
                try conn.transaction {
                    try conn.execute("INSERT INTO t VALUES ('inner')")
                    throw Failure()
                }
            }
            #expect(conn.isInTransaction)  // the inner failure did not end the outer transaction
            #expect(try names() == ["outer"])
        }
        #expect(try names() == ["outer"])
    }

    @Test func innerSuccessDoesNotCommitTheOuterTransactionEarly() throws {
        let observer = try Connection(path: directory.path("tx.sqlite"))
        #expect(throws: Failure.self) {
            try conn.transaction {
                try conn.transaction { try conn.execute("INSERT INTO t VALUES ('inner')") }
                try conn.savepoint { try conn.execute("INSERT INTO t VALUES ('savepoint')") }
                #expect(try observer.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
                throw Failure()
            }
        }
        #expect(try names().isEmpty)
    }

    @Test func nestedRollbackRequestAndDeepNesting() throws {
        try conn.transaction {
            try conn.execute("INSERT INTO t VALUES ('1')")
            try conn.inTransaction {
                try conn.execute("INSERT INTO t VALUES ('2')")
                try conn.transaction {
                    try conn.execute("INSERT INTO t VALUES ('3')")
                }
                return .rollback
            }
            try conn.savepoint {
                try conn.execute("INSERT INTO t VALUES ('4')")
            }
        }
        #expect(try names() == ["1", "4"])
    }

    @Test func constraintFailureInsideAnInnerTransactionKeepsTheOuterOne() throws {
        try conn.transaction {
            try conn.execute("INSERT INTO t VALUES ('a')")
            #expect { try conn.transaction { try conn.execute("INSERT INTO t VALUES ('a')") } } throws: {
                isDatabaseError($0, code: .constraintUnique)
            }
            try conn.execute("INSERT INTO t VALUES ('b')")
        }
        #expect(try names() == ["a", "b"])
    }

    @Test func savepointOutsideATransaction() throws {
        #expect(throws: Failure.self) {
            try conn.savepoint {
                try conn.execute("INSERT INTO t VALUES ('x')")
                throw Failure()
            }
        }
        try conn.savepoint { try conn.execute("INSERT INTO t VALUES ('y')") }
        #expect(try names() == ["y"])
        #expect(!conn.isInTransaction)
    }
}
