import Foundation
import Testing

@testable import Persistance

@Suite struct MigratorTests {
    /// Versions "1"…"4": each step after "1" adds one column to `player` and logs its version.
    private static let columns = ["2": "level", "3": "rank", "4": "coins"]

    private static func migrator(upTo latest: Int, log: Guarded<[String]>) -> Migrator {
        let steps = stride(from: 2, through: latest, by: 1).map { number in
            let version = String(number)
            return MigrationStep(version) { conn in
                try conn.execute("ALTER TABLE player ADD COLUMN \"\(columns[version]!)\" INTEGER NOT NULL DEFAULT 0")
                log.withLock { $0.append(version) }
            }
        }
        return Migrator(initialVersion: "1", steps: steps)
    }

    /// A file database with a `player` table, migrated to `version`.
    private static func database(at version: Int, in directory: TemporaryDirectory) throws -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration(path: directory.path("game.sqlite"))
        let setup = try configuration.openWriter()
        try setup.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
        try setup.execute("INSERT INTO player(name) VALUES ('Ann')")
        try migrator(upTo: version, log: Guarded([])).migrate(setup)
        try setup.close()
        configuration.migrator = nil
        return configuration
    }

    private static func columnNames(_ conn: Connection) throws -> [String] {
        try conn.fetchAll("PRAGMA table_info(player)").map { try $0.value(named: "name") }
    }

    private static func storedVersion(at path: String) throws -> String? {
        let conn = try Connection(path: path)
        defer { try? conn.close() }
        return try Migrator().storedVersion(in: conn)
    }

    @Test(arguments: [(1, 2), (1, 3), (1, 4), (2, 4), (3, 4)])
    func upgradeRunsEveryLaterStepInOrder(from: Int, to: Int) throws {
        let directory = try TemporaryDirectory()
        var configuration = try Self.database(at: from, in: directory)
        let log = Guarded<[String]>([])
        configuration.migrator = Self.migrator(upTo: to, log: log)
        let conn = try configuration.openWriter()
        defer { try? conn.close() }

        #expect(log.withLock { $0 } == (from + 1...to).map(String.init))
        #expect(try configuration.migrator?.storedVersion(in: conn) == String(to))
        let expected = ["id", "name"] + stride(from: 2, through: to, by: 1).map { Self.columns[String($0)]! }
        #expect(try Self.columnNames(conn) == expected)
        #expect(try conn.fetchOne(String.self, "SELECT name FROM player") == "Ann")
    }

    @Test func brandNewDatabaseIsStampedWithTheLatestVersionAndRunsNoStep() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("new.sqlite"))
        let log = Guarded<[String]>([])
        configuration.migrator = Self.migrator(upTo: 4, log: log)
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(log.withLock { $0 }.isEmpty)
        #expect(try configuration.migrator?.storedVersion(in: conn) == "4")
    }

    @Test func upToDateDatabaseRunsNothing() throws {
        let directory = try TemporaryDirectory()
        var configuration = try Self.database(at: 4, in: directory)
        let log = Guarded<[String]>([])
        configuration.migrator = Self.migrator(upTo: 4, log: log)
        try configuration.openWriter().close()
        #expect(log.withLock { $0 }.isEmpty)
    }

    @Test func databaseWithoutVersionTableStartsFromTheInitialVersion() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("legacy.sqlite")
        let legacy = try Connection(path: path)
        try legacy.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
        try legacy.close()

        var configuration = DatabaseConfiguration(path: path)
        let log = Guarded<[String]>([])
        configuration.migrator = Self.migrator(upTo: 3, log: log)
        try configuration.openWriter().close()
        #expect(log.withLock { $0 } == ["2", "3"])
        #expect(try Self.storedVersion(at: path) == "3")
    }

    @Test func failingStepRollsBackKeepsTheLastVersionAndTheNextOpenRetries() throws {
        let directory = try TemporaryDirectory()
        var configuration = try Self.database(at: 1, in: directory)
        let failing = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { try $0.execute("ALTER TABLE player ADD COLUMN level INTEGER") },
            MigrationStep("3") { conn in
                try conn.execute("ALTER TABLE player ADD COLUMN rank INTEGER")
                try conn.execute("ALTER TABLE missing ADD COLUMN x INTEGER")
            },
            MigrationStep("4") { try $0.execute("ALTER TABLE player ADD COLUMN coins INTEGER") },
        ])
        configuration.migrator = failing
        let error = expectThrows(.migrationFailed) { try configuration.openWriter() }
        #expect(error?.message.contains("migrating game.sqlite") == true)
        #expect(error?.message.contains("version \"3\"") == true)
        #expect(error?.resultCode == .error)
        #expect(error?.sql == "ALTER TABLE missing ADD COLUMN x INTEGER")
        #expect(try Self.storedVersion(at: configuration.path) == "2")
        let check = try Connection(path: configuration.path)
        #expect(try Self.columnNames(check) == ["id", "name", "level"])
        try check.close()

        configuration.migrator = Migrator(initialVersion: "1", steps: [
            failing.steps[0],
            MigrationStep("3") { try $0.execute("ALTER TABLE player ADD COLUMN rank INTEGER") },
            failing.steps[2],
        ])
        let conn = try configuration.openWriter()
        #expect(try Self.columnNames(conn) == ["id", "name", "level", "rank", "coins"])
        try conn.close()
    }

    @Test func nonDatabaseErrorOfAStepIsWrappedNamingTheVersion() throws {
        struct StepError: Error {}
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE player(id INTEGER PRIMARY KEY)")
        let migrator = Migrator(initialVersion: "a", steps: [MigrationStep("b") { _ in throw StepError() }])
        let error = expectThrows(.migrationFailed) { try migrator.migrate(conn) }
        #expect(error?.message.contains("\"b\"") == true)
        #expect(error?.message.contains("StepError") == true)
        #expect(try migrator.storedVersion(in: conn) == nil)
    }

    @Test func unknownStoredVersionIsAnErrorAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        var configuration = try Self.database(at: 2, in: directory)
        let setup = try Connection(path: configuration.path)
        try setup.execute("UPDATE persistance_schema_version SET version = '9'")
        try setup.close()

        let log = Guarded<[String]>([])
        configuration.migrator = Self.migrator(upTo: 4, log: log)
        let error = expectThrows(.unknownSchemaVersion) { try configuration.openWriter() }
        #expect(error?.message.contains("\"9\"") == true)
        #expect(log.withLock { $0 }.isEmpty)
        #expect(try Self.storedVersion(at: configuration.path) == "9")
    }

    @Test func emptyVersionTableIsAnError() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE persistance_schema_version(id INTEGER PRIMARY KEY, version TEXT NOT NULL)")
        expectThrows(.unknownSchemaVersion) { try Migrator().migrate(conn) }
    }

    @Test func repeatedOrEmptyVersionsAreRejected() throws {
        let conn = try Connection.inMemory()
        let step: @Sendable (Connection) throws -> Void = { _ in }
        let repeated = Migrator(initialVersion: "1", steps: [MigrationStep("2", up: step), MigrationStep("2", up: step)])
        expectThrows(.configuration) { try repeated.migrate(conn) }
        let empty = Migrator(initialVersion: "1", steps: [MigrationStep("", up: step)])
        expectThrows(.configuration) { try empty.migrate(conn) }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test func migratesDownWithDownSteps() throws {
        let conn = try Connection.inMemory()
        let steps = (2...4).map { number in
            MigrationStep(
                String(number),
                up: { try $0.execute("CREATE TABLE t\(number)(x)") },
                down: { try $0.execute("DROP TABLE t\(number)") })
        }
        let migrator = Migrator(initialVersion: "1", steps: steps)
        try conn.execute("CREATE TABLE base(x)")
        #expect(try migrator.migrate(conn) == ["2", "3", "4"])

        #expect(try migrator.migrateDown(conn, to: "2") == ["4", "3"])
        #expect(try migrator.storedVersion(in: conn) == "2")
        let tables = try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE name LIKE 't%' ORDER BY name")
        #expect(tables == ["t2"])
        #expect(try migrator.migrateDown(conn, to: "2") == [])
        #expect(try migrator.migrate(conn) == ["3", "4"])
    }

    @Test func migrateDownChecksItsWayBeforeChangingAnything() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE base(x)")
        let migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2", up: { try $0.execute("CREATE TABLE t2(x)") }),
            MigrationStep("3", up: { try $0.execute("CREATE TABLE t3(x)") }, down: { try $0.execute("DROP TABLE t3") }),
        ])
        try migrator.migrate(conn)
        let noDown = expectThrows(.migrationFailed) { try migrator.migrateDown(conn, to: "1") }
        #expect(noDown?.message.contains("\"2\" has no down step") == true)
        #expect(try migrator.storedVersion(in: conn) == "3")

        expectThrows(.unknownSchemaVersion) { try migrator.migrateDown(conn, to: "7") }
        #expect(try migrator.migrateDown(conn, to: "2") == ["3"])
        expectThrows(.misuse) { try migrator.migrateDown(conn, to: "3") }
    }

    @Test func concurrentOpensOfTheSameFileMigrateExactlyOnce() throws {
        let directory = try TemporaryDirectory()
        var prepared = try Self.database(at: 1, in: directory)
        let log = Guarded<[String]>([])
        prepared.migrator = Self.migrator(upTo: 4, log: log)
        let configuration = prepared
        let failures = Guarded<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let conn = try configuration.openWriter()
                try conn.close()
            } catch {
                failures.withLock { $0.append(String(describing: error)) }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(log.withLock { $0 } == ["2", "3", "4"])
        #expect(try Self.storedVersion(at: configuration.path) == "4")
    }
}
