import Foundation
import Testing

@testable import Persistance

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

    @Test func aRecordDecodingErrorMidCursorEndsIt() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try conn.execute("INSERT INTO item VALUES (1, 'one'), (2, NULL), (3, 'three')")
        let items = Table<CursorItem>("item", primaryKey: "id", columns: [.integer("id", primaryKey: .plain), .text("name")])
        let cursor = try items.query().order(Column("id")).fetchCursor(conn)
        #expect(try cursor.next() == CursorItem(id: 1, name: "one"))
        #expect { try cursor.next() } throws: { isDatabaseError($0, .decoding) }
        #expect(try cursor.next() == nil)
        try conn.execute("DROP TABLE item")  // the cursor's statement is not left running
    }

    @Test func aCursorUsedAfterItsTransactionEndsThrows() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let cursor = try conn.transaction { () throws -> Cursor<Int> in
            let cursor = try conn.fetchCursor(Int.self, "SELECT n FROM t ORDER BY n")
            #expect(try cursor.next() == 1)
            let second = try conn.savepoint { try cursor.next() }  // a savepoint is the same transaction
            #expect(second == 2)
            return cursor
        }
        #expect { try cursor.next() } throws: { isDatabaseError($0, .misuse) }
        #expect(try cursor.next() == nil)
        let all = try conn.transaction { try conn.fetchAll(Int.self, "SELECT n FROM t ORDER BY n") }
        #expect(all == [1, 2, 3])  // the statement was released
    }

    @Test func aCursorOpenedOutsideATransactionStreamsIntoOne() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2)")
        let cursor = try conn.fetchCursor(Int.self, "SELECT n FROM t ORDER BY n")
        #expect(try cursor.next() == 1)
        let second = try conn.transaction { try cursor.next() }
        #expect(second == 2)
        #expect(try cursor.next() == nil)
    }

    @Test func aCursorUsedAfterItsDatabaseBlockThrows() throws {
        let directory = try TemporaryDirectory()
        let configuration = DatabaseConfiguration(path: directory.path("cursor.sqlite"))
        let db = try Database.openSync(configuration: configuration, readerCount: 1)
        defer { try? db.closeSync() }
        try db.writeSync { conn in try conn.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2), (3)") }
        let openCursor = { (conn: Connection) throws -> Cursor<Int> in
            let cursor = try conn.fetchCursor(Int.self, "SELECT n FROM t ORDER BY n")
            #expect(try cursor.next() == 1)
            return cursor
        }
        // Outside any block: the connection belongs to the reader thread.
        let escaped = try db.readSync(openCursor)
        #expect { try escaped.next() } throws: { isDatabaseError($0, .connectionEscaped) }
        // In a later block on the same connection: that block's transaction is not the cursor's.
        let kept = try db.readSync(openCursor)
        let failure = try db.readSync { _ -> DatabaseError.Kind? in
            do {
                _ = try kept.next()
                return nil
            } catch let error as DatabaseError {
                return error.kind
            }
        }
        #expect(failure == .misuse)
    }
}

private struct CursorItem: Record, Codable, Equatable {
    var id: Int64
    var name: String
}
