import Foundation
import Testing

@testable import Persistance

@Suite struct RowTests {
    @Test func subscriptsByIndexAndCaseInsensitiveName() throws {
        let conn = try Connection.inMemory()
        let row = try #require(try conn.fetchOne("SELECT 1 AS Id, 'Ann' AS name, NULL AS age"))
        #expect(row.columnNames == ["Id", "name", "age"])
        #expect(row.count == 3)
        #expect(row[0] == .integer(1))
        #expect(row["id"] == .integer(1))
        #expect(row["NAME"] == .text("Ann"))
        #expect(row["age"] == .null)
        #expect(row["missing"] == nil)
        #expect(row.hasColumn("ID"))
        #expect(try row.value(named: "id", as: Int.self) == 1)
        #expect(try row.value(at: 1, as: String.self) == "Ann")
        #expect(try row.value(named: "age", as: Int?.self) == nil)
    }

    @Test(arguments: [3, RowColumns.scanLimit, RowColumns.scanLimit + 1, 40])
    func namesAreFoundTheSameWayInNarrowAndWideRows(width: Int) {
        // Column `c<i>` holds i; a repeated name (any case) and a non-ASCII name at the end.
        let names = (0..<width).map { "c\($0)" } + ["C1", "Émile", "émile"]
        let row = Row(columnNames: names, values: names.indices.map { .integer(Int64($0)) })
        #expect(row["C0"] == .integer(0))
        #expect(row["c\(width - 1)"] == .integer(Int64(width - 1)))
        #expect(row["c1"] == .integer(1), "the first of repeated names is found")
        #expect(row["ÉMILE"] == .integer(Int64(width + 1)), "ASCII letters fold")
        #expect(row["éMILE"] == .integer(Int64(width + 2)), "other letters do not")
        #expect(row["Emile"] == nil)
        #expect(row["c\(width)"] == nil)
        #expect(row[""] == nil)
    }

    @Test func typedAccessThrows() throws {
        let row: Row = ["id": 1, "name": "Ann", "age": nil]
        #expect { try row.value(named: "age", as: Int.self) } throws: { isDatabaseError($0, .decoding) }
        #expect { try row.value(named: "name", as: Int.self) } throws: { isDatabaseError($0, .decoding) }
        #expect { try row.value(named: "nope", as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
        #expect { try row.value(at: 3, as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
        #expect { try row.value(at: -1, as: Int.self) } throws: { isDatabaseError($0, .columnNotFound) }
    }

    @Test func literalKeepsOrderAndSetterEdits() {
        var row: Row = ["b": 2, "a": 1.5, "c": "x", "B": 3]
        #expect(row.columnNames == ["b", "a", "c"])
        #expect(row["b"] == .integer(3))
        row["d"] = .blob(Data([1]))
        row["A"] = .text("changed")
        row["c"] = nil
        #expect(row.columnNames == ["b", "a", "d"])
        #expect(row.values == [.integer(3), .text("changed"), .blob(Data([1]))])
    }

    @Test func equalityComparesNamesAndValues() {
        let first: Row = ["a": 1, "b": 2]
        #expect(first == ["a": 1, "b": 2])
        #expect(first != ["b": 2, "a": 1])
        #expect(first != ["a": 1, "b": 3])
        #expect(Set([first, ["a": 1, "b": 2]]).count == 1)
    }
}
