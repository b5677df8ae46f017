import Foundation
import Testing

@testable import Persistance

/// Conversions that used to be lenient or lossy are decoding or encoding errors now: text
/// with a numeric prefix read as `Decimal`, `Decimal.nan`, a REAL beyond `Float`'s range, a
/// date number that is not finite or outside the years 0000–9999, and text that is not
/// valid UTF-8.
@Suite struct StrictConversionTests {
    /// Reads `sql`'s single value as `T` and expects a decoding error naming column `v`.
    private func expectDecodingError<T: DatabaseValueConvertible>(
        _ type: T.Type, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let conn = try Connection.inMemory()
        let error = expectThrows(.decoding, sourceLocation: sourceLocation) { try conn.fetchOne(T.self, sql) }
        #expect(error?.column == "v", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["12abc", "2024-13-01", "1.5.2", "", " 12", "12 ", "NaN", "-", "1e", ".", "+.e3", "0x10"])
    func decimalTextMustBeAWholeNumber(text: String) throws {
        #expect(Decimal.fromDatabaseValue(.text(text)) == nil)
        try expectDecodingError(Decimal.self, "SELECT '\(text)' AS v")
    }

    @Test(arguments: ["12", "-12.5", "+0.25", ".5", "5.", "3e-7", "1E+10", "007"])
    func decimalTextThatIsANumberReads(text: String) throws {
        let expected = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
        #expect(Decimal.fromDatabaseValue(.text(text)) == expected)
    }

    @Test func decimalNaNIsAnEncodingErrorAndNothingIsWritten() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(v)")
        expectThrows(.encoding) { try conn.execute("INSERT INTO t VALUES (?)", [Decimal.nan]) }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
        try conn.execute("INSERT INTO t VALUES (?)", [Decimal(string: "-12.340")])
        #expect(try conn.fetchOne(Decimal.self, "SELECT v FROM t") == Decimal(string: "-12.34"))
    }

    @Test(arguments: ["1e300", "-1e300", "3.5e38"])
    func realBeyondFloatRangeIsADecodingError(real: String) throws {
        try expectDecodingError(Float.self, "SELECT \(real) AS v")
    }

    @Test func floatReadsFiniteRealsAndInfinities() throws {
        let conn = try Connection.inMemory()
        #expect(try conn.fetchOne(Float.self, "SELECT 0.1") == Float(0.1))
        #expect(try conn.fetchOne(Float.self, "SELECT 3.4e38") == Float(3.4e38))
        #expect(try conn.fetchOne(Float.self, "SELECT 1e-50") == 0)
        #expect(try conn.fetchOne(Float.self, "SELECT 9e999") == .infinity)
        #expect(try conn.fetchOne(Float.self, "SELECT -9e999") == -.infinity)
    }

    @Test(arguments: ["9e999", "-9e999", "1e300", "253402300800", "-62167219201", "253402300800.0"])
    func dateNumberOutsideTheStorableYearsIsADecodingError(number: String) throws {
        try expectDecodingError(Date.self, "SELECT \(number) AS v")
    }

    @Test func dateNumbersInsideTheStorableYearsRead() throws {
        let conn = try Connection.inMemory()
        #expect(try conn.fetchOne(Date.self, "SELECT 86400.5") == Date(timeIntervalSince1970: 86400.5))
        #expect(try conn.fetchOne(Date.self, "SELECT -62167219200") == Date(timeIntervalSince1970: -62_167_219_200))
        #expect(try conn.fetchOne(Date.self, "SELECT 253402300799") == Date(timeIntervalSince1970: 253_402_300_799))
    }

    /// `CAST(X'…' AS TEXT)` stores the bytes as TEXT without checking them.
    static let invalidUTF8 = "CAST(X'41FF42' AS TEXT)"

    @Test func invalidUTF8TextIsADecodingErrorNotARepair() throws {
        try expectDecodingError(String.self, "SELECT \(Self.invalidUTF8) AS v")
        try expectDecodingError(String?.self, "SELECT \(Self.invalidUTF8) AS v")
        let conn = try Connection.inMemory()
        // Read as a value, the text keeps its bytes, so writing it back changes nothing.
        let row = try #require(try conn.fetchOne("SELECT \(Self.invalidUTF8) AS v"))
        #expect(row["v"] == .blob(Data([0x41, 0xFF, 0x42])))
        #expect(try conn.fetchOne(Data.self, "SELECT \(Self.invalidUTF8)") == Data([0x41, 0xFF, 0x42]))
        #expect(try conn.fetchOne(String.self, "SELECT CAST(X'41C3A942' AS TEXT)") == "AéB")
    }

    @Test func invalidUTF8TextInARecordIsADecodingErrorNamingTheColumn() throws {
        let conn = try Connection.inMemory()
        let players = RecordFixtures.players
        try players.create(in: conn)
        try conn.execute("INSERT INTO player(id, name, score) VALUES (1, \(Self.invalidUTF8), 1)")
        let error = expectThrows(.decoding) { try players.findAll(in: conn) }
        #expect(error?.column == "name")
        try conn.execute("UPDATE player SET name = 'Ann'")
        #expect(try players.findAll(in: conn).map(\.name) == ["Ann"])
    }
}
