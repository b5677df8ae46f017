import Foundation
import Testing

@testable import Persistance

/// `DatabaseValueConvertible.read(from:at:)`: what typed selections read each column with.
@Suite struct DatabaseValueReadTests {
    enum Suit: String, DatabaseValueConvertible { case hearts, spades }

    /// A conformance with a reader of its own: typed selections must call it.
    struct Shouted: DatabaseValueConvertible, Equatable {
        var text: String
        var databaseValue: DatabaseValue { .text(text) }
        static func fromDatabaseValue(_ value: DatabaseValue) -> Shouted? {
            String.fromDatabaseValue(value).map { Shouted(text: $0) }
        }
        static func read(from statement: Statement, at index: Int) throws -> Shouted {
            Shouted(text: try String.read(from: statement, at: index).uppercased())
        }
    }

    /// A statement on the one row of `sql`, with its connection (kept open while it is used).
    private func row(_ sql: String) throws -> (Connection, Statement) {
        let conn = try Connection.inMemory()
        let statement = try conn.prepare(sql)
        #expect(try statement.step())
        return (conn, statement)
    }

    @Test func commonTypesAreReadStraightAndOthersConverted() throws {
        let (conn, row) = try row("SELECT 'a' AS s, 42 AS i, 2.5 AS d, x'0102' AS b, 1 AS f, 'spades' AS e, 3 AS n")
        #expect(try String.read(from: row, at: 0) == "a")
        #expect(try Int.read(from: row, at: 1) == 42)
        #expect(try Int64.read(from: row, at: 1) == 42)
        #expect(try Int8.read(from: row, at: 1) == 42)
        #expect(try Double.read(from: row, at: 2) == 2.5)
        #expect(try Data.read(from: row, at: 3) == Data([1, 2]))
        #expect(try Bool.read(from: row, at: 4) == true)
        #expect(try Suit.read(from: row, at: 5) == .spades)
        #expect(try Double.read(from: row, at: 6) == 3)
        withExtendedLifetime(conn) {}
    }

    @Test func optionalsReadNullAsNil() throws {
        let (conn, row) = try row("SELECT NULL AS missing, 'x' AS present")
        #expect(try String?.read(from: row, at: 0) == nil)
        #expect(try String?.read(from: row, at: 1) == "x")
        #expect(try Int??.read(from: row, at: 0) == .none)
        withExtendedLifetime(conn) {}
    }

    @Test func valuesThatDoNotFitAreDecodingErrorsNamingTheColumn() throws {
        let (conn, row) = try row("SELECT NULL AS missing, 'x' AS word, 'clubs' AS suit, 300 AS big")
        let null = #expect(throws: DatabaseError.self) { try Int.read(from: row, at: 0) }
        #expect(null?.kind == .decoding)
        #expect(null?.column == "missing")
        let text = #expect(throws: DatabaseError.self) { try Int.read(from: row, at: 1) }
        #expect(text?.column == "word")
        let suit = #expect(throws: DatabaseError.self) { try Suit.read(from: row, at: 2) }
        #expect(suit?.column == "suit")
        let big = #expect(throws: DatabaseError.self) { try Int8.read(from: row, at: 3) }
        #expect(big?.kind == .decoding)
        let optional = #expect(throws: DatabaseError.self) { try Int?.read(from: row, at: 1) }
        #expect(optional?.column == "word")
        withExtendedLifetime(conn) {}
    }

    @Test func typedSelectionsReadWithTheConformancesOwnReader() throws {
        let conn = try Connection.inMemory()
        try RelationFixture.create(in: conn)
        let names = RelTeam.table.query().order(RelTeam.columns.id).select { ($0.name, $0.city) }
        let rows = try SelectQuery<Shouted, String?>(clauses: names.clauses).fetchAll(conn)
        let shouted = rows.map(\.0)
        let cities = rows.map(\.1)
        #expect(shouted == [Shouted(text: "REDS"), Shouted(text: "BLUES"), Shouted(text: "GREENS")])
        #expect(cities == ["Oslo", "Rome", nil])
        let first = try SelectQuery<Shouted>(clauses: names.clauses).fetchOne(conn)
        #expect(first == Shouted(text: "REDS"))
    }
}
