import Foundation
import Persistance

extension DAO {
    /// Drops the DAO's current table and forgets its version (the seed's `deleteTable`).
    /// Every DAO on the database keeps working: the next call of any of them on the table
    /// creates it again.
    /// - Throws: `missingTableName` without a table name; `invalidTableName` for one that
    ///   is not an identifier.
    public func deleteTable() async throws {
        guard let table = try DAOTableName.checked(tableName) else {
            throw DAOError(.missingTableName, "deleteTable needs a table name")
        }
        try await dropTables([table])
    }

    /// Drops every table whose name contains a match of the regular expression `pattern`
    /// (unanchored: write `^…$` to match whole names), and returns their names (the seed's
    /// `deleteTablesWithRegex`). SQLite's own tables (`sqlite_…`) and the library's
    /// (`persistance_…`, among them the DAO's versions table) are never dropped. Every DAO
    /// on the database creates its table again on its next call. Only drop tables of this
    /// DAO's module.
    /// - Parameters:
    ///   - pattern: the regular expression searched for in each table's name.
    ///   - vacuum: whether to `VACUUM` afterwards, giving the space back to the file system.
    ///   - progress: called with the fraction done (0…1) after each table.
    @discardableResult
    public func deleteTables(
        matching pattern: String, vacuum: Bool = false, progress: (@Sendable (Double) -> Void)? = nil
    ) async throws -> [String] {
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw DAOError(.invalidCall, "\"\(pattern)\" is not a regular expression")
        }
        let names = try await database.read { connection in
            try connection.fetchAll(
                String.self, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        }
        let matching = names.filter { name in
            !name.hasPrefix("persistance_")
                && expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
        }
        try await dropTables(matching, progress: progress)
        if vacuum { try await self.vacuum() }
        return matching
    }

    /// Rebuilds the database file to give unused space back (`VACUUM`, the seed's
    /// `vacuumDatabase`). It runs on a connection of its own, outside any transaction, and
    /// waits for the database's open transactions to end.
    public func vacuum() async throws {
        let configuration = database.configuration
        guard configuration.path != ":memory:" else { return }
        try await database.write { _ in }  // queued behind the writes already submitted
        try await Task.detached {
            let connection = try configuration.openWriter()
            defer { try? connection.close() }
            try connection.execute("VACUUM")
        }.value
    }

    private func dropTables(_ tables: [String], progress: (@Sendable (Double) -> Void)? = nil) async throws {
        try await database.write { connection in
            for (index, table) in tables.enumerated() {
                try connection.execute("DROP TABLE IF EXISTS \(DAOStatementRenderer.quotedIdentifier(table))")
                try DAOTableVersions.forget(table, in: connection)
                progress?(Double(index + 1) / Double(tables.count))
            }
        }
        tablesDropped()
        for table in tables { report(.tableDeleted(table: table)) }
    }
}
