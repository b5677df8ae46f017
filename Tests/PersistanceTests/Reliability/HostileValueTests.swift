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

    /// A record whose numbers are at the edges of what SQLite stores.
    struct Extremes: Record, Codable, Equatable {
        var id: Int64?
        var real: Double
        var integer: Int64
        var float: Float?
        var unsigned: UInt64?
    }

    static let extremes = Table<Extremes>("extremes", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement), .real("real"), .integer("integer"), .real("float"), .integer("unsigned"),
    ])

    /// Through records, tables and queries: infinities and integer extremes round-trip;
    /// NaN (which SQLite would store as NULL) and unsigned values above `Int64.max` are
    /// encoding errors, as documented, and nothing is written.
    @Test func extremeNumbersThroughRecords() throws {
        let conn = try Connection.inMemory()
        let table = Self.extremes
        let edges: [(Double, Int64)] = [(.infinity, .max), (-.infinity, .min), (.greatestFiniteMagnitude, 0), (-0.0, -1), (.leastNonzeroMagnitude, 1)]
        for (real, integer) in edges {
            var record = Extremes(id: nil, real: real, integer: integer, float: Float(real), unsigned: UInt64(Int64.max))
            try table.insert(&record, in: conn)
            #expect(try table.find(primaryKey: try #require(record.id), in: conn) == record)
            #expect(try Query<Extremes>(table: "extremes").filter(Column("real") == real).fetchAll(conn).contains(record))
        }
        let nan = Extremes(id: nil, real: .nan, integer: 0)
        expectThrows(.encoding) { try table.insert(nan, in: conn) }
        expectThrows(.encoding) { try table.insert(Extremes(id: nil, real: 0, integer: 0, float: .nan), in: conn) }
        expectThrows(.encoding) { try table.insert(Extremes(id: nil, real: 0, integer: 0, unsigned: .max), in: conn) }
        expectThrows(.encoding) { try table.upsert(Extremes(id: 1, real: .nan, integer: 0), uniqueKey: "id", in: conn) }
        expectThrows(.encoding) { try table.update(["real": Double.nan], forPrimaryKey: 1, in: conn) }
        expectThrows(.encoding) { try table.findAll(where: "real", equals: Double.nan, in: conn) }
        expectThrows(.encoding) { try Query<Extremes>(table: "extremes").filter(Column("real") == Double.nan).fetchAll(conn) }
        expectThrows(.encoding) {
            try Query<Extremes>(table: "extremes").updateAll(conn, Column("real").set(to: Double.nan))
        }
        #expect(try table.count(in: conn) == edges.count)
        #expect(try table.count(where: "real IS NULL OR float IS NULL", in: conn) == 0)
    }

    /// Migration versions are values too: whatever they contain is stored and compared
    /// verbatim, and the schema holds only what the steps created.
    @Test func hostileMigrationVersionsAreOnlyValues() throws {
        let versions = ["1'; DROP TABLE t; --", "2\"); DELETE FROM persistance_schema_version; --", "3 \u{0} 🧨"]
        let migrator = Migrator(initialVersion: "0'--", steps: versions.enumerated().map { index, version in
            MigrationStep(version) { try $0.execute("CREATE TABLE step\(index)(x)") }
        })
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(x)")
        #expect(try migrator.migrate(conn) == versions)
        #expect(try migrator.storedVersion(in: conn) == versions.last)
        #expect(try migrator.migrate(conn) == [])
        let tables = try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(tables == ["persistance_schema_version", "step0", "step1", "step2", "t"])
    }

    /// A file name full of quotes and semicolons is a bound value for the export that removes
    /// encryption: the export lands in that file and nothing else changes.
    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "exporting needs SQLCipher"))
    func hostileExportPathIsOnlyAValue() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("source.sqlite"))
        configuration.secretKeys = ["export-key"]
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        try conn.execute("CREATE TABLE t(x); INSERT INTO t VALUES ('kept')")
        let destination = directory.path("x'); DETACH persistance_export; DROP TABLE t; --.sqlite")
        try conn.exportPlaintext(to: destination)
        #expect(try conn.fetchAll(String.self, "SELECT x FROM t") == ["kept"])
        let exported = try Connection(path: destination)
        defer { try? exported.close() }
        #expect(try exported.fetchAll(String.self, "SELECT x FROM t") == ["kept"])
    }
}
