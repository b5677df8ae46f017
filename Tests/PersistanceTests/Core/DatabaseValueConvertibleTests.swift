import Foundation
import Testing

@testable import Persistance

@Suite struct DatabaseValueConvertibleTests {
    /// Stores `value` in a column of no declared type and reads it back as `T`.
    private func roundTrip<T: DatabaseValueConvertible>(_ value: T) throws -> T {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v)")
        try conn.execute("INSERT INTO t VALUES (?)", [value])
        return try #require(try conn.fetchOne(T.self, "SELECT v FROM t"))
    }

    @Test func integersOfEveryWidthRoundTrip() throws {
        #expect(try roundTrip(Int.max) == Int.max)
        #expect(try roundTrip(Int64.min) == Int64.min)
        #expect(try roundTrip(Int64.max) == Int64.max)
        #expect(try roundTrip(Int8.min) == Int8.min)
        #expect(try roundTrip(Int16.max) == Int16.max)
        #expect(try roundTrip(Int32.min) == Int32.min)
        #expect(try roundTrip(UInt8.max) == UInt8.max)
        #expect(try roundTrip(UInt16.max) == UInt16.max)
        #expect(try roundTrip(UInt32.max) == UInt32.max)
        #expect(try roundTrip(UInt64(Int64.max)) == UInt64(Int64.max))
        #expect(try roundTrip(UInt(0)) == 0)
    }

    @Test func unsignedAboveInt64MaxIsAnEncodingError() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v)")
        #expect { try conn.execute("INSERT INTO t VALUES (?)", [UInt64.max]) } throws: { isDatabaseError($0, .encoding) }
        #expect { try conn.execute("INSERT INTO t VALUES (:v)", ["v": UInt(Int64.max) + 1]) } throws: {
            isDatabaseError($0, .encoding)
        }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test func outOfRangeReadsAreDecodingErrorsNamingTheColumn() throws {
        let conn = try Connection.inMemory()
        do {
            _ = try conn.fetchOne(Int8.self, "SELECT 300 AS small")
            Issue.record("expected a decoding error")
        } catch let error as DatabaseError {
            #expect(error.kind == .decoding)
            #expect(error.column == "small")
            #expect(error.message.contains("Int8"))
            #expect(error.message.contains("INTEGER"))
        }
        #expect { try conn.fetchOne(UInt.self, "SELECT -1") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchOne(Int.self, "SELECT 1.5") } throws: { isDatabaseError($0, .decoding) }
        #expect(try conn.fetchOne(Int.self, "SELECT 2.0") == 2)
    }

    @Test func nullIntoNonOptionalIsAnErrorAndIntoOptionalIsNil() throws {
        let conn = try Connection.inMemory()
        do {
            _ = try conn.fetchOne(String.self, "SELECT NULL AS nickname")
            Issue.record("expected a decoding error")
        } catch let error as DatabaseError {
            #expect(error.kind == .decoding)
            #expect(error.column == "nickname")
            #expect(error.message.contains("NULL"))
        }
        #expect(try conn.fetchOne(String?.self, "SELECT NULL") == .some(nil))
        #expect(try conn.fetchOne(String?.self, "SELECT 'x'") == .some("x"))
    }

    @Test func wrongStorageClassIsADecodingError() throws {
        let conn = try Connection.inMemory()
        #expect { try conn.fetchOne(Int.self, "SELECT '12'") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchOne(String.self, "SELECT 12") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchOne(Data.self, "SELECT 'text'") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchOne(Bool.self, "SELECT 'true'") } throws: { isDatabaseError($0, .decoding) }
    }

    @Test func boolsDoublesAndFloats() throws {
        #expect(try roundTrip(true) == true)
        #expect(try roundTrip(false) == false)
        #expect(try roundTrip(0.1 + 0.2) == 0.1 + 0.2)
        #expect(try roundTrip(-0.0) == 0)
        #expect(try roundTrip(Double.infinity) == .infinity)
        #expect(try roundTrip(-Double.infinity) == -.infinity)
        #expect(try roundTrip(Double.leastNonzeroMagnitude) == .leastNonzeroMagnitude)
        #expect(try roundTrip(Float(1.5)) == 1.5)
        let conn = try Connection.inMemory()
        #expect(try conn.fetchOne(Double.self, "SELECT 3") == 3.0)
    }

    @Test func nanIsAnEncodingErrorNotASilentNull() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v)")
        #expect { try conn.execute("INSERT INTO t VALUES (?)", [Double.nan]) } throws: { isDatabaseError($0, .encoding) }
        #expect { try conn.execute("INSERT INTO t VALUES (?)", [Float.nan]) } throws: { isDatabaseError($0, .encoding) }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test func stringsAndBytes() throws {
        #expect(try roundTrip("c'asa") == "c'asa")
        #expect(try roundTrip("NULL") == "NULL")
        #expect(try roundTrip("") == "")
        #expect(try roundTrip("日本語 🎌 Ünïcödé") == "日本語 🎌 Ünïcödé")
        #expect(try roundTrip(Data([0, 1, 2, 255])) == Data([0, 1, 2, 255]))
        #expect(try roundTrip(Data()) == Data())
        #expect(try roundTrip([UInt8]([9, 8, 7])) == [9, 8, 7])
        #expect(try roundTrip([UInt8]()) == [])
    }

    @Test func datesAreStoredAsSQLiteTextWithMilliseconds() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        #expect(try date.databaseValue == .text("2023-11-14 22:13:20.123"))
        #expect(try roundTrip(date) == date)
        let beforeEpoch = Date(timeIntervalSince1970: -1_000_000.5)
        #expect(try roundTrip(beforeEpoch) == beforeEpoch)
        #expect(try Date(timeIntervalSince1970: 0).databaseValue == .text("1970-01-01 00:00:00.000"))
        #expect(try Date(timeIntervalSince1970: -1).databaseValue == .text("1969-12-31 23:59:59.000"))
        // SQLite's own date functions read the stored text.
        let conn = try Connection.inMemory()
        #expect(try conn.fetchOne(String.self, "SELECT date(?)", [date]) == "2023-11-14")
    }

    @Test func datesAreReadFromSeveralFormats() throws {
        let conn = try Connection.inMemory()
        let expected = Date(timeIntervalSince1970: 1_700_000_000)
        for text in ["2023-11-14 22:13:20", "2023-11-14T22:13:20Z", "2023-11-14T23:13:20+01:00",
                     "2023-11-14 22:13:20.000", "2023-11-14T22:13"] {
            let date = try #require(try conn.fetchOne(Date.self, "SELECT ?", [text]))
            #expect(abs(date.timeIntervalSince(expected)) < 60, "\(text)")
        }
        #expect(try conn.fetchOne(Date.self, "SELECT ?", ["2023-11-14"]) == Date(timeIntervalSince1970: 1_699_920_000))
        #expect(try conn.fetchOne(Date.self, "SELECT 1700000000") == expected)
        #expect(try conn.fetchOne(Date.self, "SELECT 1700000000.5") == expected.addingTimeInterval(0.5))
        for bad in ["yesterday", "2023-13-01", "2023-11-14 25:00", "2023-11-14x"] {
            #expect { try conn.fetchOne(Date.self, "SELECT ?", [bad]) } throws: { isDatabaseError($0, .decoding) }
        }
    }

    @Test func datesOutsideFourDigitYearsAreEncodingErrors() {
        #expect { try Date.distantFuture.addingTimeInterval(1e12).databaseValue } throws: {
            isDatabaseError($0, .encoding)
        }
    }

    @Test func uuidsURLsAndDecimals() throws {
        let uuid = UUID()
        #expect(try roundTrip(uuid) == uuid)
        let conn = try Connection.inMemory()
        let bytes = Data([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF])
        #expect(try conn.fetchOne(UUID.self, "SELECT ?", [bytes])?.uuidString == "12345678-9ABC-DEF0-0123-456789ABCDEF")
        #expect { try conn.fetchOne(UUID.self, "SELECT 'not-a-uuid'") } throws: { isDatabaseError($0, .decoding) }

        let url = try #require(URL(string: "https://example.com/a%20b?q=1#frag"))
        #expect(try roundTrip(url) == url)

        let decimal = try #require(Decimal(string: "12345678901234567890.123456789"))
        #expect(try roundTrip(decimal) == decimal)
        #expect(try conn.fetchOne(Decimal.self, "SELECT 42") == 42)
    }

    enum Suit: String, DatabaseValueConvertible { case hearts, spades }
    enum Level: Int, DatabaseValueConvertible { case low = 1, high = 2 }

    @Test func rawRepresentableEnums() throws {
        #expect(try roundTrip(Suit.spades) == .spades)
        #expect(try roundTrip(Level.high) == .high)
        let conn = try Connection.inMemory()
        #expect { try conn.fetchOne(Suit.self, "SELECT 'clubs'") } throws: { isDatabaseError($0, .decoding) }
        #expect { try conn.fetchOne(Level.self, "SELECT 3") } throws: { isDatabaseError($0, .decoding) }
    }

    @Test func optionalsStoreNull() throws {
        let conn = try Connection.inMemory()
        let missing: Int? = nil
        #expect(try conn.fetchOne(String.self, "SELECT typeof(?)", [missing]) == "null")
        #expect(try conn.fetchOne(Int?.self, "SELECT ?", [Int?.some(5)]) == .some(5))
    }
}
