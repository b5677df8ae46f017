import Persistance

/// Opens the database through the executor with ``crashTestMigrator`` (which migrates it up
/// to the latest version) and reports `up`, then migrates it back down to the initial
/// version on a writer connection and reports `down`; again and again.
///
/// The database must hold the initial schema (table `item(id, value)`) before the first cycle.
func runMigrationLoop(_ arguments: CrashWriterArguments) async throws {
    var configuration = DatabaseConfiguration(path: arguments.path)
    configuration.secretKeys = arguments.keys
    configuration.migrator = crashTestMigrator
    for _ in arguments.cycleNumbers {
        let db = try await Database.open(configuration: configuration)
        try await db.close()
        report("up")
        let conn = try configuration.openWriter()
        try crashTestMigrator.migrateDown(conn, to: crashTestMigrator.initialVersion)
        try conn.close()
        report("down")
    }
}

/// Version 1 is `item(id INTEGER PRIMARY KEY, value INTEGER NOT NULL)`; version 2 adds the
/// column `doubled` (= 2 × value); version 3 adds table `item_tag(item, tag)` with one row
/// per item, and its index. Each step rewrites every row, so a kill often lands inside one.
let crashTestMigrator = Migrator(initialVersion: "1", steps: [
    MigrationStep("2", up: { conn in
        try conn.execute("ALTER TABLE item ADD COLUMN doubled INTEGER NOT NULL DEFAULT 0")
        try conn.execute("UPDATE item SET doubled = value * 2")
    }, down: { conn in
        // SQLite 3.15 (SQLCipher) has no DROP COLUMN: rebuild the table.
        try conn.execute("""
            CREATE TABLE item_v1(id INTEGER PRIMARY KEY, value INTEGER NOT NULL);
            INSERT INTO item_v1(id, value) SELECT id, value FROM item;
            DROP TABLE item;
            ALTER TABLE item_v1 RENAME TO item;
            """)
    }),
    MigrationStep("3", up: { conn in
        try conn.execute("""
            CREATE TABLE item_tag(item INTEGER NOT NULL, tag TEXT NOT NULL);
            INSERT INTO item_tag(item, tag) SELECT id, 'tag ' || id FROM item;
            CREATE INDEX item_tag_item ON item_tag(item);
            """)
    }, down: { conn in
        try conn.execute("DROP TABLE item_tag")
    }),
])
