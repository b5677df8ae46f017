import Foundation
import Testing

import Persistance

/// The README's declared-schema example, compiled and run as it is written there, on a new
/// file and on a release-1 file.
@Suite(.serialized) struct ReadmeDeclaredSchemaExampleTests {
    struct Note: Record, Codable {
        var id: Int64?
        var title: String
        var tag: String?
        var priority: Int?
    }

    /// Release 2: release 1 had `id` and `body`; `body` is now `title`, `tag` and `priority` are new.
    static let notes = Table<Note>("note", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("title", notNull: true),
        .text("tag"),                                    // added on open: nullable
        .integer("priority", notNull: true, default: 0), // added on open: has a default
    ], indexes: [.index("note_tag", on: ["tag"])])

    struct Target_notes: ConfigurationTarget {
        let directory: String

        func filePath(for database: String) -> String? { "\(directory)/\(database)" }

        func tables(for database: String) -> [any DeclaredTable] { [notes] }

        /// Only what needs code. A brand-new file gets the declaration, version "2", no step.
        func migrator(for database: String) -> Migrator? {
            Migrator(initialVersion: "1", steps: [
                MigrationStep("2") { conn in
                    try conn.renameColumn("body", to: "title", inTable: "note")
                },
            ])
        }
    }

    /// Runs the example in `directory` and returns what it read, with the table's columns.
    private static func runExample(in directory: String) async throws -> ([Note], [String]) {
        let notes = Self.notes
        // --- README example starts here
        try TargetRegistry.shared.register(Target_notes(directory: directory))
        let db = try await Database.open("notes_main.sqlite")   // steps, then columns and indexes added, checked
        let all = try await db.read { conn in try notes.findAll(in: conn) }   // [] on a new file
        // --- README example ends here
        defer { try? db.closeSync() }
        let columns = try await db.read { conn in try notes.columnInfo(in: conn).map(\.name) }
        return (all, columns)
    }

    @Test func onANewFile() async throws {
        let temporary = try TemporaryDirectory()
        defer { TargetRegistry.shared.unregister("notes") }
        let (all, columns) = try await Self.runExample(in: temporary.url.path)
        #expect(all.isEmpty)
        #expect(columns == ["id", "title", "tag", "priority"])
    }

    @Test func onARelease1File() async throws {
        let temporary = try TemporaryDirectory()
        defer { TargetRegistry.shared.unregister("notes") }
        let release1 = try Connection(path: temporary.path("notes_main.sqlite"))
        try release1.execute("""
            CREATE TABLE note(id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL);
            INSERT INTO note(body) VALUES ('buy milk')
            """)
        try release1.close()
        let (all, columns) = try await Self.runExample(in: temporary.url.path)
        #expect(all.map(\.title) == ["buy milk"])
        #expect(all.map(\.priority) == [0])
        #expect(columns == ["id", "title", "tag", "priority"])
    }
}
