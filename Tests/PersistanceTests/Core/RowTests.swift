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
