import Foundation
import Testing

@testable import Persistance

@Suite struct StatementTests {
    private func makeConnection() throws -> Connection {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)")
        return conn
    }

    @Test(arguments: [":", "@", "$"])
    func bindsNamedParametersWithEachPrefix(prefix: String) throws {
        let conn = try makeConnection()
        try conn.execute("INSERT INTO t(name, score) VALUES (\(prefix)name, \(prefix)score)", ["name": "Ann", "score": 2.5])
        try conn.execute("INSERT INTO t(name, score) VALUES (\(prefix)name, \(prefix)score)", ["\(prefix)name": "Bob", "score": 1])
        #expect(try conn.fetchAll(String.self, "SELECT name FROM t ORDER BY id") == ["Ann", "Bob"])
    }

    @Test func unknownOrMissingNamedArgumentsAreErrors() throws {
        let conn = try makeConnection()
        let insert = "INSERT INTO t(name) VALUES (:name)"
        #expect { try conn.execute(insert, ["name": "Ann", "nmae": "typo"]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
        #expect { try conn.execute(insert, ["other": "x"]) } throws: { isDatabaseError($0, .invalidArguments) }
        #expect { try conn.execute("INSERT INTO t(name) VALUES (?)", ["name": "Ann"]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test func positionalArgumentCountMustMatch() throws {
        let conn = try makeConnection()
        #expect { try conn.execute("INSERT INTO t(name, score) VALUES (?, ?)", ["only one"]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
        #expect { try conn.execute("INSERT INTO t(name) VALUES (?)", ["a", "b"]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
    }

    @Test func stepsReadsResetsAndReuses() throws {
        let conn = try makeConnection()
        let insert = try conn.prepare("INSERT INTO t(name, score) VALUES (?, ?)")
        for (name, score) in [("a", 1.0), ("b", 2.0), ("c", 3.0)] {
            try insert.bind(name, at: 1)
            try insert.bind(score, at: 2)
            #expect(try insert.step() == false)
            insert.reset()
        }
        let select = try conn.prepare("SELECT id, name, score FROM t WHERE score >= ? ORDER BY id")
        #expect(select.columnNames == ["id", "name", "score"])
        #expect(select.columnIndex(named: "NAME") == 1)
        try select.bind(StatementArguments([2.0]))
        var names: [String] = []
        while try select.step() {
            names.append(try select.value(named: "name"))
            #expect(try select.value(at: 0, as: Int64.self) == select.int64(at: 0))
        }
        #expect(names == ["b", "c"])
        select.reset()
        try select.bind(StatementArguments([3.0]))
        #expect(try select.step())
        #expect(select.string(at: 1) == "c")
        #expect(select.double(at: 2) == 3.0)
        #expect(try select.step() == false)
        #expect { try select.value(at: 7, as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
        #expect { try select.value(named: "nope", as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
    }

    @Test func directReadersSeeNull() throws {
        let conn = try makeConnection()
        try conn.execute("INSERT INTO t(name) VALUES (NULL)")
        let select = try conn.prepare("SELECT name, data FROM t")
        #expect(try select.step())
        #expect(select.isNull(at: 0))
        #expect(select.data(at: 1).isEmpty)
    }

    @Test func statementCacheReusesAndIsBounded() throws {
        var options = Connection.Options()
        options.statementCacheCapacity = 2
        let conn = try Connection.inMemory(options: options)
        let first = try conn.cachedStatement("SELECT 1")
        #expect(try conn.cachedStatement("SELECT 1") === first)
        _ = try conn.cachedStatement("SELECT 2")
        _ = try conn.cachedStatement("SELECT 3")
        #expect(conn.cachedStatementCount == 2)
        #expect(try conn.cachedStatement("SELECT 1") !== first)  // evicted as least recently used
    }

    /// SQL passed again as the same string value is found by identity; a string built
    /// anew, or changed after being used as a key, is found (or not) by its text.
    @Test func statementCacheFindsKeysByIdentityAndText() throws {
        var options = Connection.Options()
        options.statementCacheCapacity = 2
        let conn = try Connection.inMemory(options: options)
        var sql = "SELECT 'a long enough literal to live in heap storage' AS first"
        let statement = try conn.cachedStatement(sql)
        #expect(try conn.cachedStatement(sql) === statement)  // the same value
        #expect(try conn.cachedStatement(String(decoding: Array(sql.utf8), as: UTF8.self)) === statement)  // equal text, new storage
        sql += ", 2 AS second"  // the cache holds the old value, so this copies
        let changed = try conn.cachedStatement(sql)
        #expect(changed !== statement)
        #expect(changed.columnNames == ["first", "second"])
        #expect(try conn.fetchAll(sql).first?.count == 2)
        // Evicting forgets the remembered keys: the evicted SQL is prepared again.
        _ = try conn.cachedStatement("SELECT 3")
        _ = try conn.cachedStatement("SELECT 4")
        let again = try conn.cachedStatement(sql)
        #expect(again !== changed)
        #expect(again.columnNames == ["first", "second"])
    }

    @Test func failedStepLeavesNoStickyState() throws {
        let conn = try makeConnection()
        try conn.execute("CREATE UNIQUE INDEX t_name ON t(name)")
        let insert = "INSERT INTO t(name) VALUES (?)"
        try conn.execute(insert, ["x"])
        #expect { try conn.execute(insert, ["x"]) } throws: { isDatabaseError($0, code: .constraintUnique) }
        try conn.execute(insert, ["y"])
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 2)
    }

    @Test func emptyBlobAndEmptyTextAreNotNull() throws {
        let conn = try makeConnection()
        try conn.execute("INSERT INTO t(name, data) VALUES (?, ?)", ["", Data()])
        try conn.execute("INSERT INTO t(name, data) VALUES (?, ?)", ["", [UInt8]()])
        let rows = try conn.fetchAll("SELECT name, data, typeof(name) AS nt, typeof(data) AS dt FROM t")
        for row in rows {
            #expect(row["name"] == .text(""))
            #expect(row["data"] == .blob(Data()))
            #expect(row["nt"] == .text("text"))
            #expect(row["dt"] == .text("blob"))
        }
    }

    @Test func textWithNulBytesAndLargeBlobsRoundTrip() throws {
        let conn = try makeConnection()
        let text = "before\u{0}after ✓"
        let blob = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try conn.execute("INSERT INTO t(name, data) VALUES (?, ?)", [text, blob])
        let row = try #require(try conn.fetchOne("SELECT name, data FROM t"))
        #expect(try row.value(named: "name", as: String.self) == text)
        #expect(try row.value(named: "data", as: Data.self) == blob)
    }
}
