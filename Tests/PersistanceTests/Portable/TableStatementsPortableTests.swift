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
}
