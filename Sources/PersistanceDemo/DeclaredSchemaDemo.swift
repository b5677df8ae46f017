import Foundation
import Persistance

/// Declared tables: release 1 of an app writes a file; release 2 declares more columns, an
/// index and a renamed column, and opening the file brings it up to date — the same shape as a
/// brand-new file. A declaration that conflicts with the file fails the open and changes nothing.
func runDeclaredSchemaDemo(in directory: String) throws {
    section("Declared schemas: tables that manage themselves, migration helpers")
    struct Task: Record, Codable {
        var id: Int64?
        var summary: String
        var done: Bool?
    }
    let release1 = Table<Task>("task", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement), .text("title", notNull: true),
    ])
    let release2 = Table<Task>("task", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement), .text("summary", notNull: true),
        .integer("done", notNull: true, default: 0),
    ], indexes: [.index("task_done", on: ["done"])])

    var configuration = DatabaseConfiguration(path: "\(directory)/tasks.sqlite")
    configuration.tables = [release1]
    let first = try configuration.openWriter()
    try first.execute("INSERT INTO task(title) VALUES ('write the demo')")
    try first.close()

    configuration.tables = [release2]
    configuration.migrator = Migrator(initialVersion: "1", steps: [
        MigrationStep("2") { try $0.renameColumn("title", to: "summary", inTable: "task") },
    ])
    let upgraded = try configuration.openWriter()
    let columns = try release2.columnInfo(in: upgraded).map { "\($0.name) \($0.type)" }
    print("release 2 opened the release-1 file: \(columns.joined(separator: ", ")); "
        + "rows: \(try release2.findAll(in: upgraded).map(\.summary))")
    try upgraded.close()

    var fresh = configuration
    fresh.path = "\(directory)/tasks-new.sqlite"
    let created = try fresh.openWriter()
    let same = try release2.columnInfo(in: created).map { "\($0.name) \($0.type)" } == columns
    print("a brand-new file has the same columns: \(same); version \(try fresh.migrator?.storedVersion(in: created) ?? "none")")
    try created.close()

    var conflicting = configuration
    conflicting.tables = [Table<Task>("task", columns: [.integer("id", primaryKey: .plain), .real("summary")])]
    do {
        try conflicting.openWriter().close()
        print("unexpected: the conflicting declaration opened")
    } catch DatabaseError.Kind.schemaMismatch {
        print("a conflicting declaration is refused, file untouched")
    }
}
