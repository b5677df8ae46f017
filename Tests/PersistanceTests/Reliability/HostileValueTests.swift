import Foundation
import Testing

@testable import Persistance

/// Values can never change the shape of SQL: whatever they contain, they are bound,
/// stored and read back exactly, and the schema is unchanged.
@Suite struct HostileValueTests {
    static let hostileStrings = [
        "'); DROP TABLE t; --",
        "\"; DELETE FROM t; --",
        "Robert'); DROP TABLE Students;--",
        "x' OR '1'='1",
        ":name @name $name ?1 ?",
        "semi;colons;everywhere;",
        "nul\u{0}byte\u{0}inside",
        "\u{0}",
        "NULL",
        "",
        "🧨 \u{202E}reversed\u{202C} \u{FEFF}bom",
        String(repeating: "ä'\"; ", count: 262_144),  // ~1.5 MiB
    ]

    @Test(arguments: hostileStrings)
    func stringsAreStoredVerbatim(value: String) throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)")
        let schema = try conn.fetchAll(String.self, "SELECT sql FROM sqlite_master ORDER BY name")
        try conn.execute("INSERT INTO t(v) VALUES (?)", [value])
        try conn.execute("INSERT INTO t(v) VALUES (:v)", ["v": value])
        try conn.execute("UPDATE t SET v = :v WHERE v = :v", ["v": value])
        #expect(try conn.fetchAll(String.self, "SELECT v FROM t") == [value, value])
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t WHERE v = ?", [value]) == 2)
        #expect(try conn.fetchAll(String.self, "SELECT sql FROM sqlite_master ORDER BY name") == schema)
    }

    @Test func invalidUTF8InBlobsRoundTrips() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v BLOB)")
        let bytes = Data([0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0x00, 0xF8])
        try conn.execute("INSERT INTO t VALUES (?)", [bytes])
        #expect(try conn.fetchOne(Data.self, "SELECT v FROM t") == bytes)
    }

    @Test func extremeNumbersRoundTrip() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(i INTEGER, r REAL)")
        let pairs: [(Int64, Double)] = [(.min, -.infinity), (.max, .infinity), (0, -0.0), (-1, .greatestFiniteMagnitude)]
        for (integer, real) in pairs {
            try conn.execute("INSERT INTO t VALUES (?, ?)", [integer, real])
        }
        let rows = try conn.fetchAll("SELECT i, r FROM t ORDER BY rowid")
        #expect(try rows.map { try $0.value(named: "i", as: Int64.self) } == pairs.map(\.0))
        #expect(try rows.map { try $0.value(named: "r", as: Double.self) } == pairs.map(\.1))
    }
}
