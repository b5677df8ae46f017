import Foundation
import Testing

@testable import Persistance

/// What survives a power loss during the operations that rewrite a file or much of it: the
/// migrator, key rotation, plaintext conversion, online backup, the document store's
/// write-back cache and the `persistance` tool's rekey and vacuum. Each operation is cut at
/// each sampled write or sync call (see `PowerLossSweep`); afterwards the file is sound and
/// holds the state before the operation or the state after it, and the state after it once
/// the operation returned. Each test prints one summary line of its counts.
@Suite(.timeLimit(.minutes(3))) struct PowerLossOperationTests {
    let fixture: PowerLossFixture
    init() throws { fixture = try PowerLossFixture() }

    private var path: String { fixture.path }
    private static var key: String? { PowerLossFixture.key }
    static let items: Int64 = 40

    /// The item log's ids on a sound `path`, opened with `key`.
    private func itemIDs(key: String? = PowerLossFixture.key) throws -> Set<Int64> {
        let conn = try openSound(path, key: key)
        defer { try? conn.close() }
        return Set(try conn.fetchAll(Int64.self, "SELECT id FROM item"))
    }

    // MARK: Migrator

    static let migrator = Migrator(steps: [
        MigrationStep("2") { conn in
            try conn.execute("ALTER TABLE item ADD COLUMN doubled INTEGER NOT NULL DEFAULT 0")
            try conn.execute("UPDATE item SET doubled = 2 * bytes")
        },
        MigrationStep("3") { conn in
            try conn.execute("CREATE TABLE item_tag(item INTEGER NOT NULL, tag TEXT NOT NULL)")
            try conn.execute("INSERT INTO item_tag SELECT id, 'tag ' || id FROM item")
            try conn.execute("CREATE INDEX item_tag_item ON item_tag(item)")
        },
    ])

    @Test func migrationIsAppliedWhollyOrNotAtAll() async throws {
        try fixture.makeItemTemplate(items: Self.items)
        var versions: [String: Int] = [:]
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                var configuration = fixture.configuration(.full)
                configuration.migrator = Self.migrator
                try configuration.openWriter().close()
                log.finished = true
            },
            check: { log in
                let conn = try openSound(path, key: Self.key)
                defer { try? conn.close() }
                let version = try Self.migrator.storedVersion(in: conn) ?? "1"
                versions[version, default: 0] += 1
                let columns = try conn.fetchAll("PRAGMA table_info(item)").map { try $0.value(named: "name", as: String.self) }
                let tagTable = try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master WHERE name IN ('item_tag', 'item_tag_item')")
                #expect(columns.contains("doubled") == (version != "1"), "version \(version) with columns \(columns)")
                #expect(tagTable == (version == "3" ? 2 : 0), "version \(version) with \(tagTable ?? -1) tag objects")
                if version != "1" {
                    #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item WHERE doubled != 2 * bytes") == 0)
                }
                if version == "3" {
                    #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item_tag") == Int(Self.items))
                }
                #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM item") == Int(Self.items))
                #expect(!log.finished || version == "3", "the migration returned, then was lost")
                return log.finished && version != "3" ? 1 : 0
            })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (migration): \(counts); versions found \(versions.sorted { $0.key < $1.key })")
    }

    // MARK: Keys

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "key rotation needs SQLCipher"))
    func keyRotationLeavesTheFileWithOneKeyAndEveryRow() async throws {
        try await sweepKeyChange("key rotation", keys: ["rotation-key-old", "rotation-key-new"]) { keys in
            try fixture.configuration(.full, keys: keys).openWriter().close()
        }
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "the tool's rekey needs SQLCipher"))
    func toolRekeyLeavesTheFileWithOneKeyAndEveryRow() async throws {
        try await sweepKeyChange("tool rekey", keys: ["tool-key-old", "tool-key-new"]) { keys in
            // What `persistance rekey` does: open the file as it is, change its key.
            let conn = try Connection(path: path, options: try fixture.toolOptions(key: keys[0]))
            defer { try? conn.close() }
            try conn.changeEncryptionKey(to: keys[1])
        }
    }

    /// Cuts the power during `change`, which moves a file keyed with `keys[0]` to `keys[1]`,
    /// and checks each time that exactly one key opens the file, with every item (the new key
    /// once `change` returned). Prints the counts as `name`.
    private func sweepKeyChange(_ name: String, keys: [String], _ change: @escaping ([String]) throws -> Void) async throws {
        try fixture.makeItemTemplate(items: Self.items, keys: [keys[0]])
        var keyed: [String: Int] = [:]
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                try change(keys)
                log.finished = true
            },
            check: { log in try checkKeyChange(keys: keys, log: log, tally: &keyed) })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (\(name)): \(counts); file found keyed with \(keyed.sorted { $0.key < $1.key })")
    }

    /// Checks a file whose key changes from `keys[0]` to `keys[1]`: exactly one opens it, with
    /// every item; the new one if the change returned. Returns 1 when the change was lost.
    private func checkKeyChange(keys: [String], log: PowerLossSweep.Log, tally: inout [String: Int]) throws -> Int {
        guard let key = try fixture.keyOpening(keys) else { return 0 }
        tally[key, default: 0] += 1
        #expect(try itemIDs(key: key) == Set(1...Self.items))
        #expect(!log.finished || key == keys[1], "the key change returned, then was lost")
        return log.finished && key != keys[1] ? 1 : 0
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "encryption needs SQLCipher"))
    func plaintextConversionLeavesOnePlaintextOrEncryptedFile() async throws {
        let key = "conversion-key"
        try fixture.makeItemTemplate(items: Self.items, keys: [], journalMode: "DELETE")
        var found: [String: Int] = [:]
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                try fixture.configuration(.full, keys: [key]).openWriter().close()
                log.finished = true
            },
            check: { log in
                let isPlaintext = try fileBytes(path).starts(with: Data("SQLite format 3\0".utf8))
                found[isPlaintext ? "plaintext" : "encrypted", default: 0] += 1
                #expect(try itemIDs(key: isPlaintext ? nil : key) == Set(1...Self.items))
                #expect(!log.finished || !isPlaintext, "the conversion returned, then was lost")
                // The next open finishes the job, whatever the cut left beside the file.
                var configuration = DatabaseConfiguration(path: path)
                configuration.secretKeys = [key]
                try configuration.openWriter().close()
                #expect(try itemIDs(key: key) == Set(1...Self.items))
                return log.finished && isPlaintext ? 1 : 0
            })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (plaintext conversion): \(counts); file found \(found.sorted { $0.key < $1.key })")
    }

    // MARK: Backup

    @Test func onlineBackupLeavesThePreviousCopyOrACompleteOne() async throws {
        let destination = fixture.directory.path("backup.sqlite")
        let previous = fixture.directory.path("previous.sqlite")
        try fixture.makeItemTemplate(items: 5)
        try FileManager.default.moveItem(atPath: fixture.template, toPath: previous)
        try fixture.makeItemTemplate(items: Self.items)
        let source = try fileBytes(fixture.template)
        var found: [String: Int] = [:]
        let sweep = PowerLossSweep(
            vfs: fixture.vfs,
            reset: {
                try fixture.reset()
                try resetDatabaseFile(from: previous, to: destination)
            },
            workload: { log in
                let db = try await Database.open(configuration: fixture.configuration(.full))
                do {
                    for try await _ in db.backup(to: destination, pagesPerStep: 4) {}
                    log.finished = true
                } catch {
                    try? await db.close()
                    throw error
                }
                try await db.close()
            },
            check: { log in
                #expect(try fileBytes(path) == source, "the backup changed its source")
                #expect(try itemIDs() == Set(1...Self.items))
                let copy = try openSound(destination, key: Self.key)
                defer { try? copy.close() }
                let count = try copy.fetchOne(Int.self, "SELECT count(*) FROM item") ?? -1
                found[count == Int(Self.items) ? "complete" : count == 5 ? "previous" : "\(count) items", default: 0] += 1
                #expect(count == 5 || count == Int(Self.items), "the destination holds \(count) items")
                #expect(!log.finished || count == Int(Self.items), "the backup returned, then was lost")
                return log.finished && count != Int(Self.items) ? 1 : 0
            })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (online backup): \(counts); destination found \(found.sorted { $0.key < $1.key })")
    }

    // MARK: Document store

    @Test func documentCacheSaveWritesAllOrNothing() async throws {
        let batch = 20
        try fixture.makeTemplate { _ in }
        do {
            var configuration = DatabaseConfiguration(path: fixture.template)
            configuration.secretKeys = PowerLossFixture.keys
            let db = try await Database.open(configuration: configuration)
            let users = try await db.collection("users")
            for index in 0..<5 { _ = try await users.createOrUpdate(["index": .int(Int64(index))], where: nil) }
            try await db.close()
        }
        var found: [Int: Int] = [:]
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                let db = try await Database.open(configuration: fixture.configuration(.full))
                do {
                    let users = try await db.collection("users").beginCaching()
                    for index in 5..<(5 + batch) {
                        _ = try await users.createOrUpdate(["index": .int(Int64(index))], where: nil)
                    }
                    try await users.save()
                    log.finished = true
                    try users.endCaching()
                } catch {
                    try? await db.close()
                    throw error
                }
                try await db.close()
            },
            check: { log in
                let conn = try openSound(path, key: Self.key)
                defer { try? conn.close() }
                let count = try conn.fetchOne(Int.self, "SELECT count(*) FROM persistance_documents WHERE collection = 'users'") ?? -1
                found[count, default: 0] += 1
                #expect(count == 5 || count == 5 + batch, "the collection holds \(count) documents")
                #expect(!log.finished || count == 5 + batch, "the save returned, then was lost")
                return log.finished && count != 5 + batch ? 1 : 0
            })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (document cache save): \(counts); documents found \(found.sorted { $0.key < $1.key })")
    }

    // MARK: Tool

    @Test func toolVacuumKeepsEveryRow() async throws {
        try fixture.makeTemplate { conn in
            try conn.execute(ItemLog.schema)
            for id in 1...Self.items { try ItemLog.commit(id, on: conn) }
            try conn.execute("""
                DELETE FROM item WHERE id % 2 = 0; DELETE FROM part WHERE item % 2 = 0;
                UPDATE tally SET total = \(Self.items / 2)
                """)
        }
        let kept = Set(Swift.stride(from: 1, through: Self.items, by: 2))
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                // What `persistance vacuum` does: open the file as it is, VACUUM.
                let conn = try Connection(path: path, options: try fixture.toolOptions())
                defer { try? conn.close() }
                try conn.execute("VACUUM")
                log.finished = true
            },
            check: { _ in
                let conn = try openSound(path, key: Self.key)
                defer { try? conn.close() }
                let missing = try ItemLog.missing(on: conn, acknowledged: kept.sorted())
                #expect(missing.isEmpty, "rows lost by the vacuum: \(missing.sorted())")
                return missing.count
            })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (tool vacuum): \(counts)")
    }
}
