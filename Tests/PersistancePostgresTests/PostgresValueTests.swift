#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Testing

/// Binding and reading values: round trips through real columns, and the strict conversion
/// errors (naming the column, as on SQLite).
@Suite struct PostgresValueTests {
    /// Runs `body` with a fresh table of one column of each type, then drops it.
    private func withTable(_ body: (PostgresTransaction, String) async throws -> Void) async throws {
        let db = try await TestServer.open()
        let table = uniqueTableName("v")
        try await db.write { tx in
            try await tx.execute("""
                CREATE TABLE \(table)(big BIGINT, int INTEGER, small SMALLINT, real DOUBLE PRECISION, text TEXT,
                    bytes BYTEA, stamp TIMESTAMPTZ, id UUID, flag BOOLEAN, amount NUMERIC)
                """)
        }
        do {
            try await db.write { tx in try await body(tx, table) }
        } catch {
            try await db.write { tx in try await tx.execute("DROP TABLE \(table)") }
            await db.close()
            throw error
        }
        try await db.write { tx in try await tx.execute("DROP TABLE \(table)") }
        await db.close()
    }

    @Test func everyTypeRoundTrips() async throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let id = UUID()
        let amount = try #require(Decimal(string: "12345678901234567890.123456789", locale: Locale(identifier: "en_US_POSIX")))
        try await withTable { tx, table in
            try await tx.execute(
                "INSERT INTO \(table) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                [Int64.max, Int32.min, Int16.max, -1.5, "héllo 🌍", Data([0, 1, 255]), date, id, true, amount])
            let row = try #require(try await tx.fetchOne("SELECT * FROM \(table)"))
            #expect(try row.value("big", as: Int64.self) == .max)
            #expect(try row.value("big", as: Int.self) == .max)
            #expect(try row.value("int", as: Int32.self) == .min)
            #expect(try row.value("int", as: Int.self) == Int(Int32.min))
            #expect(try row.value("small", as: Int16.self) == .max)
            #expect(try row.value("real", as: Double.self) == -1.5)
            #expect(try row.value("text", as: String.self) == "héllo 🌍")
            #expect(try row.value("bytes", as: Data.self) == Data([0, 1, 255]))
            #expect(try row.value("stamp", as: Date.self) == date)
            #expect(try row.value("id", as: UUID.self) == id)
            #expect(try row.value("flag", as: Bool.self) == true)
            #expect(try row.value("amount", as: Decimal.self) == amount)
            #expect(try row.value(at: 0, as: Int64.self) == .max)
        }
    }

    @Test func optionalsBindAndReadNull() async throws {
        try await withTable { tx, table in
            let none: String? = nil
            try await tx.execute("INSERT INTO \(table)(big, text, bytes) VALUES ($1, $2, $3)", [nil, none, Data()])
            let row = try #require(try await tx.fetchOne("SELECT big, text, bytes FROM \(table)"))
            #expect(try row.value("big", as: Int?.self) == nil)
            #expect(try row.value("text", as: String?.self) == nil)
            #expect(try row.value("bytes", as: Data?.self) == Data())
            let error = await failure { _ = try row.value("big", as: Int.self) }
            #expect((error as? DatabaseError)?.kind == .decoding)
            #expect((error as? DatabaseError)?.column == "big")
            #expect((error as? DatabaseError)?.message == "unexpected NULL for non-optional Int")
        }
    }

    @Test func anIntegerOutOfTheTargetRangeIsADecodingErrorNamingTheColumn() async throws {
        try await withTable { tx, table in
            try await tx.execute("INSERT INTO \(table)(big, int) VALUES ($1, $2)", [70_000, Int32.max])
            let row = try #require(try await tx.fetchOne("SELECT big, int FROM \(table)"))
            #expect(try row.value("big", as: Int32.self) == 70_000)
            let small = await failure { _ = try row.value("big", as: Int16.self) }
            #expect((small as? DatabaseError)?.kind == .decoding)
            #expect((small as? DatabaseError)?.column == "big")
            #expect((small as? DatabaseError)?.message == "expected Int16, found BIGINT")
            let narrow = await failure { _ = try row.value("int", as: Int16.self) }
            #expect((narrow as? DatabaseError)?.column == "int")
            // The server checks what it stores: a BIGINT argument too large for SMALLINT is refused.
            let stored = await failure {
                try await tx.savepoint { tx in try await tx.execute("INSERT INTO \(table)(small) VALUES ($1)", [70_000]) }
            }
            #expect((stored as? DatabaseError)?.sqlState == "22003")
        }
    }

    @Test func aValueOfAnotherTypeIsADecodingError() async throws {
        try await withTable { tx, table in
            try await tx.execute("INSERT INTO \(table)(big, text, flag, real, amount) VALUES (1, '12', true, 2.5, 3)")
            let row = try #require(try await tx.fetchOne("SELECT big, text, flag, real, amount FROM \(table)"))
            let cases: [(String, () throws -> Void)] = [
                ("text", { _ = try row.value("text", as: Int.self) }),
                ("big", { _ = try row.value("big", as: String.self) }),
                ("big", { _ = try row.value("big", as: Bool.self) }),
                ("flag", { _ = try row.value("flag", as: Int.self) }),
                ("real", { _ = try row.value("real", as: Int.self) }),
                ("text", { _ = try row.value("text", as: UUID.self) }),
                ("text", { _ = try row.value("text", as: Date.self) }),
                ("amount", { _ = try row.value("amount", as: Double.self) }),
            ]
            for (column, read) in cases {
                let error = await failure { try read() }
                #expect((error as? DatabaseError)?.kind == .decoding)
                #expect((error as? DatabaseError)?.column == column)
            }
            // Widening reads that lose nothing are allowed, as on SQLite.
            #expect(try row.value("big", as: Double.self) == 1)
            #expect(try row.value("big", as: Decimal.self) == 1)
            #expect(try row.value("amount", as: Decimal.self) == 3)
            let missing = await failure { _ = try row.value("nope", as: Int.self) }
            #expect((missing as? DatabaseError)?.kind == .columnNotFound)
            let outOfBounds = await failure { _ = try row.value(at: 9, as: Int.self) }
            #expect((outOfBounds as? DatabaseError)?.kind == .columnNotFound)
        }
    }

    @Test func valuesPostgreSQLCannotHoldAreEncodingErrorsNamingTheParameter() async throws {
        try await withTable { tx, table in
            let invalid: [(any PostgresValueConvertible)?] = [
                "nul\u{0}inside", Double.nan, Decimal.nan, Date(timeIntervalSince1970: 1e16), Date(timeIntervalSince1970: -1e15),
            ]
            for value in invalid {
                let error = await failure { try await tx.execute("SELECT $1, $2", [1, value]) }
                #expect((error as? DatabaseError)?.kind == .encoding)
                #expect((error as? DatabaseError)?.column == "$2")
            }
            // Nothing was sent: the transaction is still usable.
            try await tx.execute("INSERT INTO \(table)(text) VALUES ($1)", ["after"])
        }
    }

    @Test func infiniteTimestampsAndNaNNumericsAreDecodingErrors() async throws {
        try await withTable { tx, table in
            try await tx.execute("INSERT INTO \(table)(stamp, amount, real) VALUES ('infinity', 'NaN', 'Infinity')")
            let row = try #require(try await tx.fetchOne("SELECT stamp, amount, real FROM \(table)"))
            let stamp = await failure { _ = try row.value("stamp", as: Date.self) }
            #expect((stamp as? DatabaseError)?.column == "stamp")
            let amount = await failure { _ = try row.value("amount", as: Decimal.self) }
            #expect((amount as? DatabaseError)?.column == "amount")
            #expect(try row.value("real", as: Double.self) == .infinity)
        }
    }
}
#endif
