import Foundation
import PersistanceMacros
import Testing

@testable import Persistance

enum DefaultedPriority: String, Codable {
    case low, normal, high
}

/// A record with a `DEFAULT` of each kind: enum, text with a quote, blob, Boolean, date,
/// number, and the current timestamp.
@Table("defaulted \"item\"")
struct DefaultedItem {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(default: DefaultedPriority.normal) var priority: DefaultedPriority
    @Column(default: "it's") var note: String
    @Column(default: Data([0x00, 0x27, 0xFF])) var payload: Data
    @Column(default: true) var isActive: Bool
    @Column(default: Date(timeIntervalSince1970: 86_400)) var since: Date
    var level: Int = 3
    @Column(defaultExpression: .currentTimestamp) var createdAt: Date?
}

/// A table of version 2 that adds an enum column with a default.
@Table("defaulted \"item\" v2")
struct DefaultedTaskV2 {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var title: String
    @Column(default: DefaultedPriority.high) var priority: DefaultedPriority
}

@Table("defaulted \"item\" v2")
struct DefaultedTaskV1 {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var title: String
}

@Suite struct ColumnDefaultTests {
    @Test func eachDefaultIsASafeLiteralInTheSchema() throws {
        try withTemporaryConnection { conn, _ throws in
            try DefaultedItem.table.create(in: conn)
            let sql = try #require(
                try conn.fetchOne(String.self, "SELECT sql FROM sqlite_master WHERE name = ?", ["defaulted \"item\""]))
            #expect(sql.contains("\"priority\" TEXT NOT NULL DEFAULT 'normal'"))
            #expect(sql.contains("\"note\" TEXT NOT NULL DEFAULT 'it''s'"))
            #expect(sql.contains("\"payload\" BLOB NOT NULL DEFAULT X'0027FF'"))
            #expect(sql.contains("\"isActive\" INTEGER NOT NULL DEFAULT 1"))
            #expect(sql.contains("\"since\" TEXT NOT NULL DEFAULT '1970-01-02 00:00:00.000'"))
            #expect(sql.contains("\"level\" INTEGER NOT NULL DEFAULT 3"))
            #expect(sql.contains("\"createdAt\" TEXT DEFAULT (CURRENT_TIMESTAMP)"))
        }
    }

    @Test func aRowWrittenWithoutTheColumnsReadsTheDefaults() throws {
        try withTemporaryConnection { conn, _ throws in
            try DefaultedItem.table.create(in: conn)
            try conn.execute("INSERT INTO \"defaulted \"\"item\"\"\" (id) VALUES (1)")
            let item = try #require(try DefaultedItem.table.find(primaryKey: 1, in: conn))
            #expect(item.priority == .normal)
            #expect(item.note == "it's")
            #expect(item.payload == Data([0x00, 0x27, 0xFF]))
            #expect(item.isActive)
            #expect(item.since == Date(timeIntervalSince1970: 86_400))
            #expect(item.level == 3)
            #expect(item.createdAt != nil)
        }
    }

    @Test func aNilPropertyTakesTheExpressionDefaultOnInsert() throws {
        try withTemporaryConnection { conn, _ throws in
            let before = Date().addingTimeInterval(-2)
            var item = DefaultedItem(
                priority: .low, note: "n", payload: Data(), isActive: false, since: Date(timeIntervalSince1970: 0))
            try DefaultedItem.table.insert(&item, in: conn)
            let stored = try #require(try DefaultedItem.table.find(primaryKey: item.id!, in: conn))
            #expect(stored.priority == .low)
            let createdAt = try #require(stored.createdAt)
            #expect(createdAt >= before.addingTimeInterval(-1))
            let given = Date(timeIntervalSince1970: 1_000)
            var dated = item
            dated.id = nil
            dated.createdAt = given
            try DefaultedItem.table.insert(&dated, in: conn)
            #expect(try DefaultedItem.table.find(primaryKey: dated.id!, in: conn)?.createdAt == given)
        }
    }

    @Test func anEnumColumnWithADefaultIsAddedToATableThatExists() async throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("tasks.sqlite"))
        configuration.tables = [DefaultedTaskV1.table]
        let v1 = try await Database.open(configuration: configuration)
        try await v1.write { conn in
            var task = DefaultedTaskV1(title: "old")
            try DefaultedTaskV1.table.insert(&task, in: conn)
        }
        try await v1.close()

        configuration.tables = [DefaultedTaskV2.table]
        let v2 = try await Database.open(configuration: configuration)
        let tasks = try await v2.write { conn in
            var task = DefaultedTaskV2(title: "new", priority: .low)
            try DefaultedTaskV2.table.insert(&task, in: conn)
            return try DefaultedTaskV2.table.query().order(DefaultedTaskV2.columns.id).fetchAll(conn)
                .map { "\($0.title) \($0.priority.rawValue)" }
        }
        try await v2.close()
        #expect(tasks == ["old high", "new low"])
    }

    @Test func aColumnDefinitionTakesAnExpressionInsteadOfAValue() {
        let column = ColumnDefinition.text("at", default: .text("x")).defaulting(to: .currentDate)
        #expect(column.defaultValue == nil)
        #expect(column.defaultExpression == .currentDate)
        #expect(TableSchema.columnSQL(column) == "\"at\" TEXT DEFAULT (CURRENT_DATE)")
    }
}
