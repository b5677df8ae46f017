import Foundation
import Testing

@testable import Persistance

@Suite struct ConnectionFetchTests {
    @Test func fetchOneOfAnEmptyResultIsNil() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER, name TEXT)")
        #expect(try conn.fetchOne("SELECT * FROM t") == nil)
        #expect(try conn.fetchOne(Int.self, "SELECT n FROM t WHERE n = ?", [1]) == nil)
        try conn.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')")
        #expect(try conn.fetchOne(Int.self, "SELECT n FROM t WHERE n = ?", [2]) == 2)
        #expect(try conn.fetchOne("SELECT * FROM t ORDER BY n DESC") == ["n": 2, "name": "two"])
        #expect(try conn.fetchOne(String?.self, "SELECT NULL") == .some(nil))
        try conn.execute("DROP TABLE t")  // no fetch left its statement running
    }

    @Test func fetchOneReusesItsCachedStatement() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT n FROM t WHERE n >= ? ORDER BY n"
        #expect(try conn.fetchOne(Int.self, sql, [2]) == 2)
        let cached = conn.cachedStatementCount
        #expect(try conn.fetchOne(Int.self, sql, [1]) == 1)
        #expect(try conn.fetchOne(Int.self, sql, [4]) == nil)
        #expect(conn.cachedStatementCount == cached)
    }

    @Test func aFailedFetchLeavesNoStatementRunning() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v); INSERT INTO t VALUES ('text'), (2)")
        #expect { try conn.fetchOne(Int.self, "SELECT v FROM t ORDER BY rowid") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchAll(Int.self, "SELECT v FROM t ORDER BY rowid") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchOne("SELECT * FROM t WHERE v = ?", [1, 2]) } throws: { isDatabaseError($0, .invalidArguments) }
        #expect(try conn.fetchAll(Int.self, "SELECT v FROM t WHERE typeof(v) = 'integer'") == [2])
        try conn.execute("DROP TABLE t")
    }

    @Test func fetchAllReadsEveryRow() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER, name TEXT); INSERT INTO t VALUES (1, 'one'), (2, NULL)")
        let rows = try conn.fetchAll("SELECT * FROM t ORDER BY n")
        #expect(rows == [["n": 1, "name": "one"], ["n": 2, "name": nil]])
        #expect(try conn.fetchAll(String?.self, "SELECT name FROM t ORDER BY n") == ["one", nil])
        #expect(try conn.fetchAll("SELECT * FROM t WHERE n > 5").isEmpty)
    }

    @Test func aFetchInsideACursorLoopOverTheSameSQLGetsItsOwnStatement() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2)")
        let sql = "SELECT n FROM t ORDER BY n"
        let cursor = try conn.fetchCursor(Int.self, sql)
        var pairs: [[Int?]] = []
        while let n = try cursor.next() {
            pairs.append([n, try conn.fetchOne(Int.self, sql)])
        }
        #expect(pairs == [[1, 1], [2, 1]])
    }
}
