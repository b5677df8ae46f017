import Foundation
import Testing

@testable import Persistance

/// Opening a database with declared tables: created when missing, completed where SQLite can,
/// checked, and always the same shape whether the file is new or brought up to date.
@Suite struct SchemaReconciliationTests {
    /// Version 1 of the `note` table.
    static let notesV1 = Table<Row>("note", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("title", notNull: true),
    ], indexes: [.index("note_title", on: ["title"])])

    /// Version 2: two columns appended (one NOT NULL with a default) and an index.
    static let notesV2 = Table<Row>("note", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("title", notNull: true),
        .text("tag"),
        .integer("level", notNull: true, default: 1),
    ], indexes: [.index("note_title", on: ["title"]), .index("note_tag", on: ["tag", "level"])])

    /// Version 2 with the new columns in the middle and a UNIQUE one, which ADD COLUMN cannot add.
    static let notesV2Reordered = Table<Row>("note", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("slug", unique: true),
        .integer("level", notNull: true, default: 1),
        .text("title", notNull: true),
    ], indexes: [.index("note_title", on: ["title"])])

    static func configuration(
        _ directory: TemporaryDirectory, _ name: String = "notes.sqlite", tables: [any DeclaredTable],
        migrator: Migrator? = nil
    ) -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration(path: directory.path(name))
        configuration.tables = tables
        configuration.migrator = migrator
        return configuration
    }

    /// A file at version 1 of `note` with two rows, and the last one deleted so that the
    /// AUTOINCREMENT counter is ahead of the rows.
    static func fileAtV1(_ directory: TemporaryDirectory, _ name: String = "notes.sqlite") throws -> DatabaseConfiguration {
        let configuration = Self.configuration(directory, name, tables: [notesV1])
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        try notesV1.insert(Row([("title", "first")]), in: conn)
        try notesV1.insert(Row([("title", "second")]), in: conn)
        _ = try notesV1.delete(primaryKey: 2, in: conn)
        return configuration
    }

    static func shape(of table: Table<Row>, at configuration: DatabaseConfiguration) throws -> ([TableColumnInfo], [TableIndexInfo]) {
        let conn = try Connection(path: configuration.path)
        defer { try? conn.close() }
        return (try table.columnInfo(in: conn), try table.indexInfo(in: conn))
    }

    @Test(arguments: [notesV2, notesV2Reordered])
    func upgradedFileHasTheShapeOfANewFile(_ declaration: Table<Row>) throws {
        let directory = try TemporaryDirectory()
        var upgraded = try Self.fileAtV1(directory)
        upgraded.tables = [declaration]
        let conn = try upgraded.openWriter()
        defer { try? conn.close() }
        let fresh = Self.configuration(directory, "fresh.sqlite", tables: [declaration])
        try fresh.openWriter().close()

        let upgradedShape = try Self.shape(of: declaration, at: upgraded)
        let freshShape = try Self.shape(of: declaration, at: fresh)
        #expect(upgradedShape.0 == freshShape.0)
        #expect(upgradedShape.1 == freshShape.1)
        #expect(upgradedShape.0.map(\.name) == declaration.columns.map(\.name))

        let rows = try declaration.findAll(in: conn)
        #expect(rows.count == 1)
        #expect(try rows.first?.value(named: "title", as: String.self) == "first")
        #expect(try rows.first?.value(named: "level", as: Int.self) == 1)
        #expect(try declaration.insert(Row([("title", "third")]), in: conn) == 3)   // the counter survived
    }

    @Test func aNewFileHasEveryDeclaredTableSoReadsFindThemEmpty() throws {
        let directory = try TemporaryDirectory()
        let other = Table<Row>("other", columns: [.text("value")])
        let database = try Database.openSync(configuration: Self.configuration(directory, tables: [Self.notesV2, other]))
        defer { try? database.closeSync() }
        let counts = try database.readSync { conn in
            (try Self.notesV2.findAll(in: conn).count, try other.count(in: conn))
        }
        #expect(counts == (0, 0))
        let indexes = try database.readSync { try Self.notesV2.indexInfo(in: $0).map(\.name) }
        #expect(indexes == ["note_tag", "note_title"])
    }

    @Test func aFailedFirstWriteLeavesADeclaredTableReadable() throws {
        struct Refused: Error {}
        let directory = try TemporaryDirectory()
        let database = try Database.openSync(configuration: Self.configuration(directory, tables: [Self.notesV1]))
        defer { try? database.closeSync() }
        #expect(throws: Refused.self) {
            try database.writeSync { conn in
                try Self.notesV1.insert(Row([("title", "lost")]), in: conn)
                throw Refused()
            }
        }
        #expect(try database.readSync { try Self.notesV1.count(in: $0) } == 0)
    }

    @Test func aBrandNewFileIsStampedWithTheLatestVersionAndRunsNoStep() throws {
        let directory = try TemporaryDirectory()
        let ran = Guarded(false)
        let migrator = Migrator(initialVersion: "1", steps: [MigrationStep("2") { _ in ran.withLock { $0 = true } }])
        let configuration = Self.configuration(directory, tables: [Self.notesV2], migrator: migrator)
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(ran.withLock { $0 } == false)
        #expect(try migrator.storedVersion(in: conn) == "2")
        #expect(try Self.notesV2.columnInfo(in: conn).map(\.name) == ["id", "title", "tag", "level"])
    }

    /// The step renames `title` to `heading`; the declaration has `heading`. The step runs
    /// first, so reconciliation never adds a `heading` the rename would collide with.
    @Test func aRenameStepRunsBeforeReconciliation() throws {
        let directory = try TemporaryDirectory()
        var configuration = try Self.fileAtV1(directory)
        let renamed = Table<Row>("note", primaryKey: "id", columns: [
            .integer("id", primaryKey: .autoincrement), .text("heading", notNull: true), .text("tag"),
        ])
        configuration.tables = [renamed]
        configuration.migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { try $0.renameColumn("title", to: "heading", inTable: "note") },
        ])
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(try renamed.columnInfo(in: conn).map(\.name) == ["id", "heading", "tag"])
        #expect(try conn.fetchOne(String.self, "SELECT heading FROM note") == "first")
        #expect(try configuration.migrator?.storedVersion(in: conn) == "2")
    }

    @Test func aFailingStepRollsBackTheWholeOpen() throws {
        let directory = try TemporaryDirectory()
        var configuration = try Self.fileAtV1(directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: configuration.path))
        configuration.tables = [Self.notesV2]
        configuration.migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { try $0.execute("ALTER TABLE note ADD COLUMN extra TEXT") },
            MigrationStep("3") { try $0.execute("ALTER TABLE missing ADD COLUMN x TEXT") },
        ])
        let error = expectThrows(.migrationFailed) { try configuration.openWriter() }
        #expect(error?.message.contains("version \"3\"") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: configuration.path)) == before)
        #expect(try Self.shape(of: Self.notesV1, at: configuration).0.map(\.name) == ["id", "title"])
    }

    @Test func anInvalidOrRepeatedDeclarationFailsTheOpen() throws {
        let directory = try TemporaryDirectory()
        let invalid = Table<Row>("broken", columns: [])
        expectThrows(.invalidTable) { try Self.configuration(directory, tables: [invalid]).openWriter() }
        let twice = Self.configuration(directory, tables: [Self.notesV1, Self.notesV2])
        expectThrows(.configuration) { try twice.openWriter() }
    }

    @Test func aTargetAnswersTheTablesOfItsDatabases() throws {
        struct Target_catalog: ConfigurationTarget {
            let directory: String
            func filePath(for database: String) -> String? { "\(directory)/\(database)" }
            func tables(for database: String) -> [any DeclaredTable] {
                database.contains("v1") ? [SchemaReconciliationTests.notesV1] : [SchemaReconciliationTests.notesV2]
            }
        }
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry()
        try registry.register(Target_catalog(directory: directory.url.path), as: "catalog")
        let configuration = try DatabaseConfiguration.resolve("catalog_v1.sqlite", registry: registry)
        #expect(configuration.tables.map(\.name) == ["note"])
        #expect(configuration.tables.first?.columns.count == 2)
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(try Self.notesV1.exists(in: conn))
        #expect(try DatabaseConfiguration.resolve("catalog.sqlite", registry: registry).tables.first?.columns.count == 4)
    }

    @Test func quotedIdentifiersAreReconciled() throws {
        let directory = try TemporaryDirectory()
        let before = Table<Row>("we\"ird", columns: [.text("a\"b")], indexes: [.index("i\"x", on: ["a\"b"])])
        let after = Table<Row>("we\"ird", columns: [.text("a\"b"), .text("c'\"d", default: "it's")],
            indexes: [.index("i\"x", on: ["a\"b"]), .index("j\"y", on: ["c'\"d", "a\"b"], unique: true)])
        try Self.configuration(directory, tables: [before]).openWriter().close()
        let conn = try Self.configuration(directory, tables: [after]).openWriter()
        defer { try? conn.close() }
        #expect(try after.columnInfo(in: conn).map(\.name) == ["a\"b", "c'\"d"])
        #expect(try after.indexInfo(in: conn).map(\.name) == ["i\"x", "j\"y"])
        try after.insert(Row([("a\"b", "x")]), in: conn)
        #expect(try after.findAll(in: conn).first?.value(named: "c'\"d", as: String.self) == "it's")
    }
}
