import Foundation
import Testing

@testable import Persistance

/// The value types columns declare for richer engines, and the text of the statements the
/// portable table operations add to a table's fixed ones, in SQLite's dialect and in a `$n` one.
@Suite struct TableStatementsPortableTests {
    private enum Level: Int16, Codable { case low, high }
    private enum Mood: String, Codable { case calm }
    private struct Settings: Codable { var volume = 1 }

    @Test func propertyColumnsKnowTheirValueType() {
        func type<T: Encodable>(_ swiftType: T.Type, _ strategy: DatabaseDateStrategy = .text) -> ColumnDefinition.ValueType? {
            ColumnDefinition.property("c", of: swiftType, dateStrategy: strategy).valueType
        }
        #expect(type(Bool.self) == .bool)
        #expect(type(Int16.self) == .int16)
        #expect(type(Int8.self) == .int16)
        #expect(type(UInt8.self) == .int16)
        #expect(type(Int32.self) == .int32)
        #expect(type(UInt16.self) == .int32)
        #expect(type(Int.self) == .int64)
        #expect(type(UInt32.self) == .int64)
        #expect(type(Int64?.self) == .int64)
        #expect(type(Double.self) == .double)
        #expect(type(Float.self) == .double)
        #expect(type(String.self) == .string)
        #expect(type(URL.self) == .string)
        #expect(type(Data.self) == .data)
        #expect(type([UInt8].self) == .data)
        #expect(type(Date.self) == .date)
        #expect(type(Date?.self, .secondsSince1970) == .double)
        #expect(type(Date.self, .millisecondsSince1970) == .int64)
        #expect(type(UUID.self) == .uuid)
        #expect(type(Decimal.self) == .decimal)
        #expect(type(Level.self) == .int16)
        #expect(type(Mood?.self) == .string)
        #expect(type(Settings.self) == .json)
        #expect(type([String].self) == .json)
        #expect(ColumnDefinition.valueType(of: Character.self, dateStrategy: .text) == .string)
    }

    @Test func plainDeclarationsHaveNoValueType() {
        #expect(ColumnDefinition.integer("id").valueType == nil)
        #expect(ColumnDefinition.text("name").valueType == nil)
        #expect(ColumnDefinition.blob("bytes").valueType == nil)
    }

    @Test func theDefaultColumnTypeIsTheAffinitys() {
        let column = ColumnDefinition.property("id", of: Int16.self, primaryKey: .autoincrement)
        #expect(SQLiteDialect().columnType(column) == "INTEGER PRIMARY KEY AUTOINCREMENT")
        #expect(SQLiteDialect().columnType(.property("at", of: Date.self)) == "TEXT")
        #expect(NumberedTestDialect().columnType(.property("id", of: UUID.self)) == "TEXT")
    }

    @Test func severalConflictTargetsFollowUpsertSupport() {
        #expect(SQLiteDialect().supportsSeveralConflictTargets == SQLiteEngine.supportsUpsert)
        #expect(NumberedTestDialect().supportsSeveralConflictTargets)
    }

    @Test func aGeneratedKeyIsLeftOutOfTheInsert() {
        let table = Table<Row>("gadget", columns: [
            .integer("id", primaryKey: .autoincrement), .text("code", unique: true),
            .text("made").defaulting(to: .currentTimestamp),
        ])
        let numbered = PortableStatements(table.schema, NumberedTestDialect())
        #expect(numbered.insertWithoutKey == "INSERT INTO `gadget` (`code`, `made`) VALUES ($1, COALESCE($2, (CURRENT_TIMESTAMP)))")
        #expect(numbered.slotsWithoutKey == [1, 2])
        #expect(numbered.count == "SELECT COUNT(*) FROM `gadget`")
        #expect(numbered.select("`id`", whereColumn: "`code`") == "SELECT `id` FROM `gadget` WHERE `code` = $1")
        let sqlite = PortableStatements(table.schema, SQLiteDialect())
        #expect(sqlite.table.insert == table.schema.insertSQL)
        #expect(sqlite.insertWithoutKey == #"INSERT INTO "gadget" ("code", "made") VALUES (?1, COALESCE(?2, (CURRENT_TIMESTAMP)))"#)
        let keyless = PortableStatements(Table<Row>("log", columns: [.text("line")]).schema, NumberedTestDialect())
        #expect(keyless.insertWithoutKey == nil)
    }

    @Test func theUpsertWithoutReturningIsTheUpsertsStatement() {
        let table = Table<Row>("gadget", columns: [.integer("id", primaryKey: .autoincrement), .text("code", unique: true)])
        let statements = table.schema.statements(in: NumberedTestDialect())
        #expect(statements.upsertFallsBackToPrimaryKey(uniqueKeySlot: 1))
        #expect(!statements.upsertFallsBackToPrimaryKey(uniqueKeySlot: 0))
        #expect(statements.upsert(uniqueKeySlot: 1) == statements.upsertWithoutReturning(uniqueKeySlot: 1) + " RETURNING ctid")
        #expect(statements.upsertWithoutReturning(uniqueKeySlot: 0) == statements.upsert(uniqueKeySlot: 0))
        #expect(statements.upsertWithoutReturning(uniqueKeySlot: 1).components(separatedBy: "ON CONFLICT").count == 3)
    }

    @Test func statementsAreRenderedOncePerDialectType() {
        let table = Table<Row>("gadget", columns: [.integer("id", primaryKey: .plain)])
        let first = table.schema.portableStatements.statements(of: table.schema, in: NumberedTestDialect())
        let again = table.schema.portableStatements.statements(of: table.schema, in: NumberedTestDialect())
        let sqlite = table.schema.portableStatements.statements(of: table.schema, in: SQLiteDialect())
        #expect(first.table.insert == again.table.insert)
        #expect(first.table.insert != sqlite.table.insert)
    }
}
