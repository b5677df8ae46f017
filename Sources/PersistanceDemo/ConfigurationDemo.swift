import Foundation
import Persistance

/// The configuration and migration layers: a registered target places the demo database,
/// migrates it when a later "release" of the app adds a step, and (built with the
/// SQLCipher trait) encrypts it and rotates its key when the release adds a newer key.
func runConfigurationDemo(in directory: String) throws {
    section("Configuration: targets, migrations, encryption keys")
    defer { TargetRegistry.shared.unregister("shop") }
    let name = "shop_demo.sqlite"

    try TargetRegistry.shared.register(Target_shop(directory: directory, release: 1))
    let first = try DatabaseConfiguration.resolve(name)
    print("release 1: \"\(name)\" maps to the target \"\(try TargetRegistry.targetName(forDatabase: name))\"; "
        + "file \(first.path), \(first.secretKeys.count) key(s)")
    let conn = try first.openWriter()
    print("brand-new database stamped with version \(try first.migrator?.storedVersion(in: conn) ?? "none")")
    try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    try conn.execute("INSERT INTO item(name) VALUES ('lamp'), ('chair')")
    try conn.close()

    try TargetRegistry.shared.register(Target_shop(directory: directory, release: 2))
    let second = try DatabaseConfiguration.resolve(name)
    print("release 2: \(second.migrator?.steps.count ?? 0) migration step(s), \(second.secretKeys.count) key(s)")
    let upgraded = try second.openWriter()
    print("opened at version \(try second.migrator?.storedVersion(in: upgraded) ?? "none"); columns: "
        + (try upgraded.fetchAll("PRAGMA table_info(item)").map { try $0.value(named: "name", as: String.self) })
        .joined(separator: ", "))
    try upgraded.close()

    guard SQLiteEngine.isSQLCipher else {
        print("built without SQLCipher: no keys configured (keys would be an encryptionUnavailable error)")
        return
    }
    var oldKeyOnly = second
    oldKeyOnly.secretKeys = Array(second.secretKeys.dropLast())
    do {
        try oldKeyOnly.openReader().close()
        print("unexpected: the old key still opens the file")
    } catch ResultCode.notADatabase {
        print("key rotated: the file now opens only with the newest key")
    }
}

/// The demo shop's configuration target, as a given release of the app would answer.
struct Target_shop: ConfigurationTarget {
    let directory: String
    let release: Int

    func filePath(for database: String) -> String? { "\(directory)/shop/\(database)" }

    func migrator(for database: String) -> Migrator? {
        let steps = [
            MigrationStep("2") { conn in
                print("  running step 2: adding item.price")
                try conn.execute("ALTER TABLE item ADD COLUMN price REAL NOT NULL DEFAULT 0")
            },
        ]
        return Migrator(initialVersion: "1", steps: Array(steps.prefix(release - 1)))
    }

    func secretKeys(for database: String) -> [String] {
        SQLiteEngine.isSQLCipher ? Array(["shop-key-2024", "shop-key-2025"].prefix(release)) : []
    }
}
