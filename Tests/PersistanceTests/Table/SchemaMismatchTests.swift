import Foundation
import Testing

@testable import Persistance

/// A declaration that the file cannot be brought to safely fails the open with
/// `.schemaMismatch`, naming the table and column (or index), and the file stays byte for byte
/// as it was.
@Suite struct SchemaMismatchTests {
    /// A file's `note` table, made by hand, and a declaration that conflicts with it.
    struct Conflict: CustomTestStringConvertible, Sendable {
        let label: String
        let fileSQL: String
        let declaration: Table<Row>
        /// The column the error names, or nil for an index conflict.
        let column: String?
        /// Words the message must hold.
        let reason: String

        var testDescription: String { label }
    }

    static let conflicts = [
        Conflict(
            label: "type conflict", fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, score TEXT)",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .real("score")]),
            column: "score", reason: "declared REAL, the file has TEXT"),
        Conflict(
            label: "NOT NULL column without default missing",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT)",
            declaration: Table("note", columns: [
                .integer("id", primaryKey: .plain), .text("title"), .integer("rank", notNull: true),
            ]),
            column: "rank", reason: "NOT NULL without a default"),
        Conflict(
            label: "column the file requires, no longer declared",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT, owner TEXT NOT NULL)",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .text("title")]),
            column: "owner", reason: "no longer has the column"),
        Conflict(
            label: "primary key differs", fileSQL: "CREATE TABLE note(id INTEGER, code TEXT PRIMARY KEY)",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .text("code")]),
            column: "id", reason: "primary key"),
        Conflict(
            label: "declared nullable, NOT NULL in the file",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .text("title")]),
            column: "title", reason: "requires a value"),
        Conflict(
            label: "index of the same name on other columns",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT, tag TEXT); CREATE INDEX note_i ON note(tag)",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .text("title"), .text("tag")],
                indexes: [.index("note_i", on: ["title"])]),
            column: nil, reason: "index \"note_i\" is on (tag) in the file, declared on (title)"),
        Conflict(
            label: "index name taken by a table",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE note_i(x)",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .text("title")],
                indexes: [.index("note_i", on: ["title"])]),
            column: nil, reason: "taken by the table \"note_i\""),
        Conflict(
            label: "unique index over duplicate values",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO note(title) VALUES ('a'), ('a')",
            declaration: Table("note", columns: [.integer("id", primaryKey: .plain), .text("title")],
                indexes: [.index("note_title", on: ["title"], unique: true)]),
            column: nil, reason: "unique index \"note_title\" cannot be created"),
        Conflict(
            label: "unique column added to a table that differs",
            fileSQL: "CREATE TABLE note(id INTEGER PRIMARY KEY, title VARCHAR(20))",
            declaration: Table("note", columns: [
                .integer("id", primaryKey: .plain), .text("code", unique: true), .text("title"),
            ]),
            column: "code", reason: "UNIQUE"),
    ]

    @Test(arguments: conflicts)
    func conflictFailsTheOpenAndLeavesTheFileUnchanged(_ conflict: Conflict) throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("notes.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute(conflict.fileSQL)
        try setup.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: configuration.path))

        configuration.tables = [conflict.declaration, Table<Row>("added", columns: [.text("x")])]
        configuration.migrator = Migrator(initialVersion: "1", steps: [MigrationStep("2") { _ in }])
        let error = expectThrows(.schemaMismatch) { try configuration.openWriter() }
        #expect(error?.column == conflict.column)
        #expect(error?.message.contains("table \"note\"") == true)
        #expect(error?.message.contains(conflict.reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.hasPrefix("migrating notes.sqlite") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: configuration.path)) == before)

        let check = try Connection(path: configuration.path)
        defer { try? check.close() }
        #expect(try Migrator().storedVersion(in: check) == nil)
        #expect(try check.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'added'") == 0)
    }

    @Test func aNameTakenByAViewIsAMismatch() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("notes.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute("CREATE VIEW note AS SELECT 1 AS id")
        try setup.close()
        configuration.tables = [Table<Row>("note", columns: [.integer("id")])]
        let error = expectThrows(.schemaMismatch) { try configuration.openWriter() }
        #expect(error?.message.contains("taken by a view") == true)
    }

    @Test func compatibleDifferencesAreAccepted() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("notes.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute("""
            CREATE TABLE note(id INTEGER PRIMARY KEY, title VARCHAR(40), extra TEXT, level INT NOT NULL DEFAULT 3);
            INSERT INTO note(title) VALUES ('kept')
            """)
        try setup.close()
        let declaration = Table<Row>("note", columns: [
            .integer("id", primaryKey: .plain), .text("title", notNull: true), .integer("level", default: 1), .blob("added"),
        ])
        configuration.tables = [declaration]
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(try declaration.columnInfo(in: conn).map(\.name) == ["id", "title", "extra", "level", "added"])
        #expect(try declaration.findAll(in: conn).first?.value(named: "title", as: String.self) == "kept")
    }
}
