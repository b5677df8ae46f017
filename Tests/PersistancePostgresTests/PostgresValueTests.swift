#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Testing

/// Binding `DatabaseValue`s (typed by their place in the statement) and reading cells back as
/// the values SQLite would have stored, with the same strict conversions and errors.
@Suite struct PostgresValueTests {
    /// Runs `body` in a write with a fresh table of one column of each type, then drops it.
    private func withTable(_ body: (PostgresTransaction, String) async throws -> Void) async throws {
        let db = try await TestServer.open()
        let table = uniqueTableName("v")
        try await db.write { tx in
            try await tx.execute("""
                CREATE TABLE \(table)(big BIGINT, int INTEGER, small SMALLINT, real DOUBLE PRECISION, text TEXT,
                    bytes BYTEA, stamp TIMESTAMPTZ, id UUID, flag BOOLEAN, amount NUMERIC, doc JSONB, day DATE)
                """)
        }
        let outcome: Result<Void, any Error>
        do {
            try await db.write { tx in try await body(tx, table) }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await db.write { tx in try await tx.execute("DROP TABLE \(table)") }
        await db.close()
        try outcome.get()
    }

    /// The value of `sql`'s only column in its only row.
    private func value(_ tx: PostgresTransaction, _ sql: String, _ arguments: [DatabaseValue] = []) async throws
        -> DatabaseValue
    {
        try #require(try await tx.fetchOne(sql, arguments))[0]
    }

    @Test func eachParameterTakesTheTypeOfItsColumn() async throws {
        let id = UUID()
        try await withTable { tx, table in
            let inserted = try await tx.execute(
                "INSERT INTO \(table) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                [.integer(.max), -5, 7, -1.5, "héllo 🌍", .blob(Data([0, 1, 255])), "2026-11-27 01:02:03.456",
                 .text(id.uuidString.lowercased()), 1, "12345678901234567890.123456789", #"{"a": [1, "x"]}"#,
                 "2026-11-27"])
            #expect(inserted == 1)
            let row = try #require(try await tx.fetchOne("SELECT * FROM \(table)"))
            #expect(row.columnNames == ["big", "int", "small", "real", "text", "bytes", "stamp", "id", "flag", "amount",
                                        "doc", "day"])
            #expect(row.values == [
                .integer(.max), -5, 7, -1.5, "héllo 🌍", .blob(Data([0, 1, 255])), "2026-11-27 01:02:03.456",
                .text(id.uuidString), 1, "12345678901234567890.123456789", #"{"a": [1, "x"]}"#, "2026-11-27",
            ])
            // The same conversions as on SQLite read them.
            #expect(try row.value(named: "stamp", as: Date.self) == Date(timeIntervalSince1970: 1_795_741_323.456))
            #expect(try row.value(named: "id", as: UUID.self) == id)
            #expect(try row.value(named: "flag", as: Bool.self))
            #expect(try row.value(named: "small", as: Int16.self) == 7)
            #expect(try row.value(named: "amount", as: Decimal.self)
                == Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX")))
            // Date text without an offset is UTC: the session's time zone.
            #expect(try await value(tx, "SELECT stamp = '2026-11-27 01:02:03.456+00' FROM \(table)") == 1)
            #expect(try await value(tx, "SHOW TimeZone") == "UTC")
        }
    }

    @Test func parametersWorkWhereverTheStatementNeedsAType() async throws {
        try await withTable { tx, table in
            try await tx.execute("INSERT INTO \(table)(flag, real, amount) VALUES ($1, $2, $3)", [0, 42, "-0.50"])
            #expect(try await tx.fetchAll("SELECT flag, real, amount FROM \(table)").first?.values == [0, 42.0, "-0.5"])
            #expect(try await tx.fetchAll("SELECT * FROM generate_series(1, 10) LIMIT $1", [3]).count == 3)
            #expect(try await tx.fetchAll("SELECT * FROM generate_series(1, 10) OFFSET $1", [8]).count == 2)
            #expect(try await value(tx, "SELECT COALESCE($1, 'x')", [nil]) == "x")
            #expect(try await value(tx, "SELECT COALESCE($1, 'x')", ["y"]) == "y")
            #expect(try await value(tx, "SELECT CASE WHEN $1 THEN 'yes' ELSE 'no' END", [1]) == "yes")
            #expect(try await value(tx, "SELECT CASE WHEN $1 THEN 'yes' ELSE 'no' END", [0]) == "no")
            #expect(try await value(tx, "SELECT $1 + 1", [41]) == 42)
            #expect(try await value(tx, "SELECT $1::bigint", [.integer(.min)]) == .integer(.min))
            #expect(try await value(tx, "SELECT $1::float8", [.real(0.1)]) == .real(0.1))
            #expect(try await value(tx, "SELECT $1::float8", [.real(.leastNonzeroMagnitude)]) == .real(.leastNonzeroMagnitude))
            #expect(try await value(tx, "SELECT $1::float8", [.real(-.infinity)]) == .real(-.infinity))
            #expect(try await value(tx, "SELECT $1", [.blob(Data())]) == .blob(Data()))
            #expect(try await value(tx, "SELECT $1::text IS NULL", [nil]) == 1)
            #expect(try await value(tx, "SELECT $1::text", [""]) == "")
        }
    }

    @Test func theServerChecksEachValueAgainstItsColumnWithoutShowingIt() async throws {
        try await withTable { tx, table in
            let cases: [(String, DatabaseValue, String, String)] = [
                ("small", 40_000, "40000", "22003"),
                ("id", "secret-not-a-uuid", "secret-not-a-uuid", "22P02"),
                ("stamp", "secret-not-a-date", "secret-not-a-date", "22007"),
                ("flag", 7, "7", "22P02"),
            ]
            for (column, argument, shown, sqlState) in cases {
                let error = await failure {
                    _ = try await tx.savepoint { tx in
                        try await tx.execute("INSERT INTO \(table)(text, \(column)) VALUES ($1, $2)", ["other", argument])
                    }
                }
                let databaseError = try #require(error as? DatabaseError)
                #expect(databaseError.kind == .postgres)
                #expect(databaseError.sqlState == sqlState, "\(column)")
                #expect(!databaseError.description.contains("\"\(shown)\""), "\(databaseError)")
                #expect(databaseError.message.contains("$2"), "\(databaseError)")
            }
            // The savepoints undid each failure: the transaction goes on.
            #expect(try await tx.execute("INSERT INTO \(table)(small) VALUES ($1)", [.integer(Int64(Int16.max))]) == 1)
        }
    }

    @Test func valuesPostgreSQLCannotHoldAreEncodingErrorsNamingTheParameter() async throws {
        try await withTable { tx, table in
            for value: DatabaseValue in ["nul\u{0}inside", .real(.nan)] {
                let error = await failure { try await tx.execute("SELECT $1, $2", [1, value]) }
                let databaseError = try #require(error as? DatabaseError)
                #expect(databaseError.kind == .encoding)
                #expect(databaseError.column == "$2")
                #expect(databaseError.sql == "SELECT $1, $2")
            }
            // Nothing was sent: the transaction is still usable.
            #expect(try await tx.execute("INSERT INTO \(table)(text) VALUES ($1)", ["after"]) == 1)
        }
    }

    @Test func eachServerTypeReadsAsSQLiteWouldHaveStoredIt() async throws {
        try await withTable { tx, _ in
            let row = try #require(try await tx.fetchOne("""
                SELECT 1::int2, 2::int4, 3::int8, 1.5::float4, 0.1::float8, true, false, 'a'::varchar, 'ab'::char(3),
                    'n'::name, '\\x00ff'::bytea, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid, '[1, 2]'::json,
                    '2026-11-27 01:02:03.4567'::timestamp, '2026-11-27 01:02:03.4567+02'::timestamptz,
                    '0001-01-01'::date, NULL::int8, NULL::text
                """))
            #expect(row.values == [
                1, 2, 3, 1.5, 0.1, 1, 0, "a", "ab ", "n", .blob(Data([0, 255])), "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11",
                "[1, 2]", "2026-11-27 01:02:03.457", "2026-11-26 23:02:03.457", "0001-01-01", nil, nil,
            ])
        }
    }

    @Test func numericsReadAsTheirExactDecimalText() async throws {
        try await withTable { tx, _ in
            let cases = [
                ("12.50", "12.5"), ("3.000", "3"), ("0.0001000", "0.0001"), ("-0.5", "-0.5"), ("0", "0"),
                ("0.000", "0"), ("100000000", "100000000"), ("1e-20", "0.00000000000000000001"),
                ("-123456789.000000001", "-123456789.000000001"), ("99999", "99999"), ("10000.0001", "10000.0001"),
                ("123456789012345678901234567890123456789012", "123456789012345678901234567890123456789012"),
                ("'NaN'", "NaN"), ("'Infinity'", "Infinity"), ("'-Infinity'", "-Infinity"),
            ]
            for (literal, text) in cases {
                let read = try await value(tx, "SELECT \(literal)::numeric")
                #expect(read == .text(text), "\(literal)")
                if let decimal = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX")), text.count < 30 {
                    #expect(decimal.description == text, "\(literal)")
                }
            }
        }
    }

    @Test func aValueWithNoPortableFormIsADecodingErrorNamingItsColumn() async throws {
        try await withTable { tx, _ in
            let cases = [
                ("SELECT '1 day'::interval AS span", "span"),
                ("SELECT 1::oid AS object", "object"),
                ("SELECT 'infinity'::timestamptz AS forever", "forever"),
                ("SELECT '-infinity'::date AS never", "never"),
                ("SELECT ARRAY[1, 2] AS list", "list"),
                ("SELECT 1 AS first, 'x' AS second, ARRAY[1, 2] AS third, 4 AS fourth", "third"),
                // The widest row decoded as a tuple, and a wider one, read cell by cell.
                (Self.wideRow(columns: 16, arrayAt: 16), "c16"),
                (Self.wideRow(columns: 20, arrayAt: 18), "c18"),
            ]
            for (sql, column) in cases {
                let error = await failure { _ = try await tx.fetchAll(sql) }
                let databaseError = try #require(error as? DatabaseError)
                #expect(databaseError.kind == .decoding, "\(sql)")
                #expect(databaseError.column == column)
            }
            // The statement itself succeeded: the transaction goes on.
            #expect(try await value(tx, "SELECT '1 day'::interval::text") == "1 day")
            // A NUMERIC NaN reads as text that no Decimal reads.
            let nan = try #require(try await tx.fetchOne("SELECT 'NaN'::numeric AS amount"))
            let decoding = await failure { _ = try nan.value(named: "amount", as: Decimal.self) }
            #expect((decoding as? DatabaseError)?.column == "amount")
        }
    }

    /// `SELECT 1 AS c1, 2 AS c2, …`, the column `arrayAt` (if any) an array, which has no portable value.
    private static func wideRow(columns: Int, arrayAt: Int? = nil) -> String {
        "SELECT " + (1...columns).map { $0 == arrayAt ? "ARRAY[\($0)] AS c\($0)" : "\($0) AS c\($0)" }.joined(separator: ", ")
    }

    /// Rows up to 16 columns wide are decoded as tuples (each width its own), wider ones cell by
    /// cell; the columns hold integers, texts and blobs in turn.
    @Test(arguments: Array(1...17) + [20])
    func everyColumnOfARowIsReadInOrder(columns: Int) async throws {
        try await withTable { tx, _ in
            // Each column's SQL literal and the value it reads as.
            let cells: [(literal: String, value: DatabaseValue)] = (1...columns).map { column in
                switch column % 3 {
                case 0: ("'text \(column)'", .text("text \(column)"))
                case 1: ("\(column)", .integer(Int64(column)))
                default: ("'\\x\(String(format: "%02x", column))ff'::bytea", .blob(Data([UInt8(column), 0xFF])))
                }
            }
            let sql = "SELECT " + cells.indices.map { "\(cells[$0].literal) AS c\($0 + 1)" }.joined(separator: ", ")
            let names = (1...columns).map { "c\($0)" }
            let expected = cells.map(\.value)
            let row = try #require(try await tx.fetchOne(sql))
            #expect(row.columnNames == names)
            #expect(row.values == expected)
        }
    }

    @Test func aLaterRowThatDoesNotConvertFailsTheQueryWhoseRestIsReadAndDropped() async throws {
        try await withTable { tx, _ in
            // The third of a thousand rows has a timestamp SQLite's text cannot show.
            let sql = """
                SELECT n, CASE WHEN n = 3 THEN 'infinity'::timestamptz ELSE now() END AS stamp
                FROM generate_series(1, 1000) n
                """
            // Twice: the statement prepared by the first run is run again by the second.
            for _ in 0..<2 {
                let error = await failure { _ = try await tx.fetchAll(sql) }
                let databaseError = try #require(error as? DatabaseError)
                #expect(databaseError.kind == .decoding)
                #expect(databaseError.column == "stamp")
            }
            // The statement ran to its end: the connection answers the next one, and the
            // transaction commits (withTable's write would throw 25P02 after a failed statement).
            #expect(try await value(tx, "SELECT count(*) FROM generate_series(1, 1000)") == 1000)
        }
    }

    @Test func rowsKeepRepeatedColumnNames() async throws {
        try await withTable { tx, _ in
            let rows = try await tx.fetchAll("SELECT x AS a, x * 10 AS a FROM generate_series(1, 2) x")
            #expect(rows.map(\.columnNames) == [["a", "a"], ["a", "a"]])
            #expect(rows.map(\.values) == [[1, 10], [2, 20]])
            #expect(try rows[1].value(named: "A", as: Int.self) == 2)
        }
    }
}
#endif
