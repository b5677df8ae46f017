import ArgumentParser
import Foundation
import Persistance

/// `persistance info FILE`: what the file is and what it holds.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the engine, encryption, schema version, page size, journal mode, tables with row counts and indexes.")

    @OptionGroup var database: DatabaseFileOptions

    func run() throws {
        let encrypted = try !database.isPlaintext()
        let conn = try database.open()
        defer { try? conn.close() }
        do {
            let size = (try? FileManager.default.attributesOfItem(atPath: database.file)[.size] as? Int) ?? 0
            let pageSize = try conn.fetchOne(Int.self, "PRAGMA page_size") ?? 0
            let pages = try conn.fetchOne(Int.self, "PRAGMA page_count") ?? 0
            let free = try conn.fetchOne(Int.self, "PRAGMA freelist_count") ?? 0
            let journal = try conn.fetchOne(String.self, "PRAGMA journal_mode") ?? "?"
            let walPath = database.file + "-wal"
            let walSize = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? nil
            print("file:            \(database.file) (\(size) bytes)")
            print("engine:          \(PersistanceCommand.engineDescription)")
            print("encrypted:       \(encrypted ? "yes" : "no")")
            print("schema version:  \(try Migrator().storedVersion(in: conn) ?? "none (no migrator has stamped it)")")
            print("user_version:    \(try conn.fetchOne(Int.self, "PRAGMA user_version") ?? 0)")
            print("pages:           \(pages) × \(pageSize) bytes, \(free) free")
            print("journal mode:    \(journal)" + (walSize.map { ", WAL file \($0) bytes" } ?? ""))
            let tables = try conn.fetchAll(
                String.self,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
            print(tables.isEmpty ? "tables:          none" : "tables:")
            let rows = try tables.map { [$0, String(try conn.fetchOne(Int.self, "SELECT count(*) FROM \(quote($0))") ?? 0)] }
            if !rows.isEmpty { print(TextTable(header: ["table", "rows"], rows: rows).render(indent: 2)) }
            let indexes = try conn.fetchAll(
                "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY tbl_name, name")
            print(indexes.isEmpty ? "indexes:         none" : "indexes:")
            let indexRows = try indexes.map { row -> [String] in
                let name: String = try row.value(named: "name")
                let columns = try conn.fetchAll("PRAGMA index_info(\(quote(name)))").map { try $0.value(named: "name") as String? ?? "?" }
                return [name, try row.value(named: "tbl_name"), columns.joined(separator: ", ")]
            }
            if !indexRows.isEmpty { print(TextTable(header: ["index", "table", "columns"], rows: indexRows).render(indent: 2)) }
        } catch {
            throw CLIError.oneLine(error)
        }
    }
}

/// `name` as a quoted SQL identifier.
func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
