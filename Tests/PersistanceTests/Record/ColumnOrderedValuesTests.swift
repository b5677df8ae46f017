import Foundation
import Testing

@testable import Persistance

/// A hand-written record that binds its values in column order when the table allows it,
/// with one property for each kind of `append`: `extraValues` and `appendedColumns`
/// make it append more or fewer values than it has columns.
private struct OrderedRecord: FastDecodableRecord, Equatable {
    var id: Int64?
    var name: String
    var count: Int?
    var score: Double?
    var blob: Data?
    var flag: Bool?
    var raw: DatabaseValue
    var extraValues = 0
    var appendedColumns: Int?

    static let databaseColumns = ["id", "name", "count", "score", "blob", "flag", "raw"]

    init(
        id: Int64? = nil, name: String, count: Int? = nil, score: Double? = nil, blob: Data? = nil, flag: Bool? = nil,
        raw: DatabaseValue = .null
    ) {
        (self.id, self.name, self.count, self.score, self.blob, self.flag, self.raw) =
            (id, name, count, score, blob, flag, raw)
    }

    init(statement: Statement, columns: [Int]) {
        id = statement.isNull(at: columns[0]) ? nil : statement.int64(at: columns[0])
        name = statement.string(at: columns[1])
        count = statement.isNull(at: columns[2]) ? nil : Int(statement.int64(at: columns[2]))
        score = statement.isNull(at: columns[3]) ? nil : statement.double(at: columns[3])
        blob = statement.isNull(at: columns[4]) ? nil : statement.data(at: columns[4])
        flag = statement.isNull(at: columns[5]) ? nil : statement.int64(at: columns[5]) != 0
        raw = statement.column(at: columns[6])
    }

    func encode(into container: inout RecordValues) throws {
        let appends: [(inout ColumnOrderedValues) throws -> Void] = [
            { try $0.append(id) }, { try $0.append(name) }, { try $0.append(count) }, { try $0.append(score) },
            { try $0.append(blob) }, { try $0.append(flag) }, { try $0.append(raw) },
        ]
        let appended = try container.inColumnOrder(of: Self.self) { values in
            for append in appends.prefix(appendedColumns ?? appends.count) { try append(&values) }
            for _ in 0..<extraValues { try values.append(0) }
        }
        if appended { return }
        try container.set(id, forColumn: "id")
        try container.set(name, forColumn: "name")
        try container.set(count, forColumn: "count")
        try container.set(score, forColumn: "score")
        try container.set(blob, forColumn: "blob")
        try container.set(flag, forColumn: "flag")
        try container.set(raw, forColumn: "raw")
    }

    mutating func didInsert(rowID: Int64, column: String) {
        id = rowID
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.id, lhs.name, lhs.count, lhs.score, lhs.blob, lhs.flag) == (rhs.id, rhs.name, rhs.count, rhs.score, rhs.blob, rhs.flag)
            && lhs.raw == rhs.raw
    }
}

private let columns: [ColumnDefinition] = [
    .integer("id", primaryKey: .autoincrement), .text("name", notNull: true, unique: true), .integer("count", default: 7),
    .real("score"), .blob("blob"), .integer("flag"), .blob("raw", default: "none"),
]

/// The record's columns in the record's order: values are bound by position.
private let inOrder = Table<OrderedRecord>("ordered", columns: columns)
/// The same columns in another order: values are set by name.
private let reordered = Table<OrderedRecord>("ordered", columns: columns.reversed())

@Suite struct ColumnOrderedValuesTests {
    @Test(arguments: [true, false])
    func everyKindOfValueRoundTrips(inTableOrder: Bool) throws {
        let table = inTableOrder ? inOrder : reordered
        try withTemporaryConnection { conn, _ throws in
            var records = [
                OrderedRecord(name: "all", count: -3, score: 2.5, blob: Data([0, 1, 2]), flag: true, raw: .integer(9)),
                OrderedRecord(name: "c'ote \"q\"", count: .max, score: -.infinity, blob: Data(), flag: false, raw: .text("t")),
                OrderedRecord(name: "", raw: .real(1.5)),
            ]
            try table.insert(contentsOf: &records, in: conn)
            #expect(records.map(\.id) == [1, 2, 3])
            // Nil takes the column default where there is one, else NULL.
            var expected = records
            expected[2].count = 7
            let stored = try table.findAll(in: conn).sorted { $0.id! < $1.id! }
            #expect(stored == expected)
            let defaults = try #require(try conn.fetchOne("SELECT typeof(blob) AS blob, raw FROM ordered WHERE id = 3"))
            #expect(defaults["blob"] == "null")
            let empty = try #require(try conn.fetchOne("SELECT typeof(blob) AS blob FROM ordered WHERE id = 2"))
            #expect(empty["blob"] == "blob")
            let rawDefault = OrderedRecord(name: "raw default")
            try table.insert(rawDefault, in: conn)
            #expect(try conn.fetchOne(String.self, "SELECT raw FROM ordered WHERE name = 'raw default'") == "none")
        }
    }

    @Test func moreValuesThanColumnsIsAnErrorAndInsertsNothing() throws {
        try withTemporaryConnection { conn, _ throws in
            try inOrder.insert(OrderedRecord(name: "kept"), in: conn)
            var extra = OrderedRecord(name: "extra")
            extra.extraValues = 1
            let batch = [OrderedRecord(name: "first of the batch"), extra]
            let error = #expect(throws: DatabaseError.self) { try inOrder.insert(contentsOf: batch, in: conn) }
            #expect(error?.kind == .invalidArguments)
            #expect(try inOrder.findAll(in: conn).map(\.name) == ["kept"])
            // By name, the same record has no extra value to append.
            try reordered.insert(extra, in: conn)
            #expect(try reordered.count(in: conn) == 2)
        }
    }

    @Test func columnsLeftWithoutAValueGetTheirDefault() throws {
        try withTemporaryConnection { conn, _ throws in
            var partial = OrderedRecord(name: "partial", count: 1, score: 2, flag: true, raw: .text("set"))
            partial.appendedColumns = 2
            try inOrder.insert(partial, in: conn)
            let stored = try #require(try inOrder.findAll(in: conn).first)
            #expect(stored == OrderedRecord(id: 1, name: "partial", count: 7, raw: .text("none")))
        }
    }

    @Test func nanIsRefused() throws {
        try withTemporaryConnection { conn, _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try inOrder.insert(OrderedRecord(name: "nan", score: .nan), in: conn)
            }
            #expect(error?.kind == .encoding)
            #expect(try inOrder.count(in: conn) == 0)
        }
    }

    @Test(arguments: [true, false])
    func upsertUpdatesByTheUniqueKey(inTableOrder: Bool) throws {
        let table = inTableOrder ? inOrder : reordered
        try withTemporaryConnection { conn, _ throws in
            var ann = OrderedRecord(name: "Ann", count: 1, score: 1)
            try table.insert(&ann, in: conn)
            var again = OrderedRecord(name: "Ann", count: 2, flag: true)
            #expect(try table.upsert(&again, uniqueKey: "name", in: conn) == ann.id)
            #expect(again.id == ann.id)
            let stored = try #require(try table.findAll(in: conn).first)
            // A nil property keeps the stored value.
            #expect(stored == OrderedRecord(id: ann.id, name: "Ann", count: 2, score: 1, flag: true, raw: .text("none")))
            #expect(try table.count(in: conn) == 1)
        }
    }

    @Test func encodingOutsideATableSetsTheValuesByName() throws {
        let row = try OrderedRecord(name: "loose", count: 3).encodedRow()
        #expect(row["name"] == "loose")
        #expect(row["count"] == 3)
        #expect(row.count == OrderedRecord.databaseColumns.count)
    }
}

/// Where `ContainerThief` keeps the container it moved out of `encode(into:)`.
private final class StolenContainer: @unchecked Sendable {
    var container: RecordValues?
}

/// A record whose `encode(into:)` moves out the container it is lent and leaves another.
private struct ContainerThief: Record {
    let stash: StolenContainer

    init(statement: Statement) throws {
        stash = StolenContainer()
    }

    init(stash: StolenContainer) {
        self.stash = stash
    }

    static func rowDecoder(for statement: Statement) throws -> RecordDecodingFunction<Self> {
        RecordDecodingFunction { try Self(statement: $0) }
    }

    func encode(into container: inout RecordValues) throws {
        try container.set("taken", forColumn: "name")
        stash.container = consume container
        container = RecordValues()
    }
}

@Suite struct MovedRecordValuesTests {
    @Test func movingTheContainerOutIsAnErrorAndTheMovedOneStaysUsable() throws {
        let stash = StolenContainer()
        try withTemporaryConnection { conn, _ throws in
            let table = Table<ContainerThief>("thief", columns: [.text("name")])
            try table.create(in: conn)
            let error = #expect(throws: DatabaseError.self) { try table.insert(ContainerThief(stash: stash), in: conn) }
            #expect(error?.kind == .invalidArguments)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM thief") == 0)
        }
        // The write is over; the container it lent still refers to its buffer, kept alive.
        guard var moved = stash.container.take() else {
            Issue.record("encode(into:) did not run")
            return
        }
        try moved.set("later", forColumn: "name")
        #expect(moved.value(forColumn: "name") == "later")
    }
}
