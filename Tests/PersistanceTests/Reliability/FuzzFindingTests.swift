import Foundation
import Testing

@testable import Persistance

/// What the fuzzers in `Fuzz/` found, kept as regression tests (their crashing inputs are
/// in `Fuzz/Regressions/`).
@Suite struct FuzzFindingTests {
    /// ValueFuzzer: reading a REAL infinity as `Decimal` trapped in `Decimal(Double)`, and a
    /// REAL beyond `Decimal`'s range read as NaN. Both are decoding errors now.
    @Test(arguments: [Double.infinity, -.infinity, .nan, 1e308, -1e200, .leastNonzeroMagnitude])
    func realOutsideDecimalRangeIsADecodingError(real: Double) {
        #expect(Decimal.fromDatabaseValue(.real(real)) == nil)
        let error = #expect(throws: DatabaseError.self) { try Decimal.decode(.real(real), column: "amount") }
        #expect(error?.kind == .decoding && error?.column == "amount")
    }

    @Test func decimalStillReadsRealsInItsRange() throws {
        let conn = try Connection.inMemory()
        #expect(try conn.fetchOne(Decimal.self, "SELECT 12.5") == Decimal(string: "12.5"))
        let large = try #require(try conn.fetchOne(Decimal.self, "SELECT -1e100"))
        #expect(large < Decimal(string: "-9.99e99")! && large > Decimal(string: "-1.01e100")!)
    }

    /// ValueFuzzer: a `DatabaseValue.real(.nan)` was bound as NULL (SQLite turns NaN into NULL),
    /// where `Double.nan` is refused. Binding it is an encoding error now, and nothing is written.
    @Test func nanDatabaseValueIsRefusedWhenBound() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(r REAL)")
        let nan = DatabaseValue.real(.nan)
        expectThrows(.encoding) { try conn.execute("INSERT INTO t VALUES (?)", [nan]) }
        expectThrows(.encoding) { try conn.execute("INSERT INTO t VALUES (:r)", ["r": nan]) }
        expectThrows(.encoding) { try conn.fetchOne("SELECT ?", [DatabaseValue.real(-.nan)]) }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
    }

    /// ValueFuzzer: date text with a time-zone offset out of range (`+25:30`) was read as a
    /// date, shifted by a day, where SQLite's date functions reject it. Offsets now follow
    /// SQLite's limits: at most 14 hours and 59 minutes.
    @Test(arguments: ["1999-12-31 12:00:00+25:30", "1999-12-31 12:00+15:00", "1999-12-31T12:00:00-14:60", "2024-01-01 00:00+99:99"])
    func dateWithAnOutOfRangeOffsetIsNotADate(text: String) throws {
        #expect(Date.fromDatabaseValue(.text(text)) == nil)
        let conn = try Connection.inMemory()
        #expect(try conn.fetchOne(Double?.self, "SELECT julianday(?)", [text]) == .some(nil))
    }

    @Test func dateOffsetsWithinRangeStillRead() {
        #expect(Date.fromDatabaseValue(.text("2000-01-01 14:00:00+14:00")) == Date(timeIntervalSince1970: 946_684_800))
        #expect(Date.fromDatabaseValue(.text("1999-12-31T10:01-13:59")) == Date(timeIntervalSince1970: 946_684_800))
    }
}
