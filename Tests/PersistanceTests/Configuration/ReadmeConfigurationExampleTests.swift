import Foundation
import Testing

import Persistance

/// The README's configuration example, compiled and run as it is written there.
@Suite struct ReadmeConfigurationExampleTests {
    /// Configures "inventory.sqlite", "inventory_2025.sqlite", "shops/inventory_paris.sqlite", …
    struct Target_inventory: ConfigurationTarget {
        let directory: String

        /// Where the file lives (without this answer: `DatabaseDirectory.current/<name>`).
        func filePath(for database: String) -> String? { "\(directory)/\(database)" }

        /// Oldest first, newest last. Keys need the SQLCipher trait: with plain SQLite they are an error.
        func secretKeys(for database: String) -> [String] {
            SQLiteEngine.isSQLCipher ? ["2024-key", "2025-key"] : []
        }

        /// Versions "1" → "2" → "3". A brand-new file is stamped "3" and runs no step.
        func migrator(for database: String) -> Migrator? {
            Migrator(initialVersion: "1", steps: [
                MigrationStep("2") { conn in
                    try conn.execute("ALTER TABLE item ADD COLUMN price REAL NOT NULL DEFAULT 0")
                },
                MigrationStep("3", up: { conn in
                    try conn.execute("CREATE INDEX item_price ON item(price)")
                }, down: { conn in
                    try conn.execute("DROP INDEX item_price")
                }),
            ])
        }
    }

    @Test func readmeConfigurationExample() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url.path
        defer { TargetRegistry.shared.unregister("inventory") }

        // --- README example starts here
        try TargetRegistry.shared.register(Target_inventory(directory: directory))

        let configuration = try DatabaseConfiguration.resolve("inventory_main.sqlite")
        let conn = try configuration.openWriter()   // directory created, keys applied, WAL on, migrated
        defer { try? conn.close() }
        try conn.execute("""
            CREATE TABLE IF NOT EXISTS item(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS item_price ON item(price)
            """)
        let version = try configuration.migrator?.storedVersion(in: conn)   // "3"
        // --- README example ends here

        #expect(configuration.path == "\(directory)/inventory_main.sqlite")
        #expect(version == "3")
        try conn.close()
        try configuration.openWriter().close()
    }
}
