import Foundation
import Testing

@testable import Persistance

@Suite struct RowTests {
    @Test func subscriptsByIndexAndCaseInsensitiveName() throws {
        let conn = try Connection.inMemory()
        let row = try #require(try conn.fetchOne("SELECT 1 AS Id, 'Ann' AS name, NULL AS age"))
        #expect(row.columnNames == ["Id", "name", "age"])
        #expect(row.count == 3)
        #expect(row[0] == .integer(1))
        #expect(row["id"] == .integer(1))
        #expect(row["NAME"] == .text("Ann"))
        #expect(row["age"] == .null)
        #expect(row["missing"] == nil)
        #expect(row.hasColumn("ID"))
        #expect(try row.value(named: "id", as: Int.self) == 1)
        #expect(try row.value(at: 1, as: String.self) == "Ann")
        #expect(try row.value(named: "age", as: Int?.self) == nil)
    }

    @Test func typedAccessThrows() throws {
        let row: Row = ["id": 1, "name": "Ann", "age": nil]
        #expect { try row.value(named: "age", as: Int.self) } throws: { isDatabaseError($0, .decoding) }
        #expect { try row.value(named: "name", as: Int.self) } throws: { isDatabaseError($0, .decoding) }
        #expect { try row.value(named: "nope", as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
        #expect { try row.value(at: 3, as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
        #expect { try row.value(at: -1, as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
    }

    @Test func literalKeepsOrderAndSetterEdits() {
        var row: Row = ["b": 2, "a": 1.5, "c": "x", "B": 3]
        #expect(row.columnNames == ["b", "a", "c"])
        #expect(row["b"] == .integer(3))
        row["d"] = .blob(Data([1]))
        row["A"] = .text("changed")
        row["c"] = nil
        #expect(row.columnNames == ["b", "a", "d"])
        #expect(row.values == [.integer(3), .text("changed"), .blob(Data([1]))])
    }

    @Test func equalityComparesNamesAndValues() {
        let first: Row = ["a": 1, "b": 2]
        #expect(first == ["a": 1, "b": 2])
        #expect(first != ["b": 2, "a": 1])
        #expect(first != ["a": 1, "b": 3])
        #expect(Set([first, ["a": 1, "b": 2]]).count == 1)
    }
}

@Suite struct CursorTests {
    @Test func streamsRowsLazily() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER)")
        try conn.transaction {
            for n in 0..<10_000 { try conn.execute("INSERT INTO t VALUES (?)", [n]) }
        }
        let cursor = try conn.fetchCursor(Int.self, "SELECT n FROM t ORDER BY n")
        var sum = 0
        var count = 0
        try cursor.forEach { sum += $0; count += 1 }
        #expect(count == 10_000)
        #expect(sum == (0..<10_000).reduce(0, +))
        #expect(try cursor.next() == nil)
    }

    @Test func cursorsOverTheSameSQLCanNest() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT n FROM t ORDER BY n"
        var pairs: [[Int]] = []
        let outer = try conn.fetchCursor(Int.self, sql)
        while let n = try outer.next() {
            pairs.append(try conn.fetchAll(Int.self, sql).map { $0 * n })
        }
        #expect(pairs == [[1, 2, 3], [2, 4, 6], [3, 6, 9]])
    }

    @Test func aDecodingErrorEndsTheCursorAndReleasesTheStatement() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v); INSERT INTO t VALUES (1), ('two'), (3)")
        let cursor = try conn.fetchCursor(Int.self, "SELECT v FROM t ORDER BY rowid")
        #expect(try cursor.next() == 1)
        #expect { try cursor.next() } throws: { isDatabaseError($0, .decoding) }
        #expect(try cursor.next() == nil)
        #expect(try conn.fetchAll(Int?.self, "SELECT NULL FROM t") == [nil, nil, nil])
        try conn.execute("DROP TABLE t")  // no statement is left running
    }

    @Test func abandonedCursorDoesNotHoldTheReadTransaction() throws {
        try withTemporaryConnection { conn, directory in
            try conn.execute("PRAGMA journal_mode = WAL; CREATE TABLE t(v); INSERT INTO t VALUES (1), (2)")
            do {
                let cursor = try conn.fetchCursor("SELECT v FROM t")
                _ = try cursor.next()
            }
            #expect(!conn.isInTransaction)
            let other = try Connection(path: directory.path("test.sqlite"))
            try other.execute("INSERT INTO t VALUES (3)")
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 3)
        }
    }
}
