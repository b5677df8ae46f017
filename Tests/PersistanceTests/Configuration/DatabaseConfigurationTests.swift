import Foundation
import Testing

@testable import Persistance

@Suite struct DatabaseConfigurationTests {
    /// Serves every database it maps to from `directory/custom`, with a migrator and keys.
    struct Target_app: ConfigurationTarget {
        let directory: String
        func filePath(for database: String) -> String? { "\(directory)/custom/\(database)" }
        func migrator(for database: String) -> Migrator? { Migrator(initialVersion: database) }
        func secretKeys(for database: String) -> [String] { ["k1", "k2"] }
    }

    struct Target_relative: ConfigurationTarget {
        func filePath(for database: String) -> String? { "relative/\(database)" }
    }

    @Test func nameWithoutTargetGetsTheDefaults() throws {
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry(defaultDirectory: directory.url.path)
        let configuration = try DatabaseConfiguration.resolve("sub/dir/game_1.sqlite", registry: registry)
        #expect(configuration.name == "sub/dir/game_1.sqlite")
        #expect(configuration.path == directory.path("sub/dir/game_1.sqlite"))
        #expect(configuration.secretKeys.isEmpty)
        #expect(configuration.migrator == nil)
        #expect(!configuration.isInMemory)
    }

    @Test func targetAnswersReceiveTheFullDatabaseName() throws {
        let registry = TargetRegistry()
        try registry.register(Target_app(directory: "/srv"))
        let configuration = try DatabaseConfiguration.resolve("app_main.sqlite", registry: registry)
        #expect(configuration.path == "/srv/custom/app_main.sqlite")
        #expect(configuration.secretKeys == ["k1", "k2"])
        #expect(configuration.migrator?.initialVersion == "app_main.sqlite")
    }

    @Test func relativePathsAndInvalidNamesAreConfigurationErrors() throws {
        let registry = TargetRegistry(defaultDirectory: "relative-directory")
        try registry.register(Target_relative())
        expectThrows(.configuration) { try DatabaseConfiguration.resolve("relative.sqlite", registry: registry) }
        let directoryError = expectThrows(.configuration) { try DatabaseConfiguration.resolve("x.sqlite", registry: registry) }
        #expect(directoryError?.message.contains("PERSISTANCE_DIRECTORY") == true)
        expectThrows(.configuration) { try DatabaseConfiguration.resolve("", registry: registry) }
        expectThrows(.configuration) { try DatabaseConfiguration.resolve("../x.sqlite", registry: registry) }
    }

    @Test func writerCreatesMissingDirectoriesAndUsesWAL() throws {
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry(defaultDirectory: directory.path("data"))
        let configuration = try DatabaseConfiguration.resolve("a/b/game.sqlite", registry: registry)
        let writer = try configuration.openWriter()
        #expect(try writer.fetchOne(String.self, "PRAGMA journal_mode") == "wal")
        #expect(try writer.fetchOne(Int.self, "PRAGMA foreign_keys") == 1)
        try writer.execute("CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('written')")
        #expect(FileManager.default.fileExists(atPath: directory.path("data/a/b/game.sqlite")))

        let reader = try configuration.openReader()
        #expect(try reader.fetchOne(String.self, "SELECT v FROM t") == "written")
        let error = #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES ('x')") }
        #expect(error?.resultCode == .readOnly)
        try reader.close()
        try writer.close()
    }

    @Test func inMemoryConfigurationOpensWithoutWALAndMigrates() throws {
        var configuration = DatabaseConfiguration(path: ":memory:")
        configuration.migrator = Migrator(initialVersion: "1", steps: [MigrationStep("2") { _ in }])
        #expect(configuration.isInMemory)
        let conn = try configuration.openWriter()
        #expect(try conn.fetchOne(String.self, "PRAGMA journal_mode") == "memory")
        #expect(try configuration.migrator?.storedVersion(in: conn) == "2")
        try conn.close()
    }

    @Test func errorsSayWhichStepFailed() throws {
        let directory = try TemporaryDirectory()
        try Data("a file".utf8).write(to: directory.url.appendingPathComponent("blocker"))
        let registry = TargetRegistry(defaultDirectory: directory.url.path)

        let directoryError = expectThrows(.fileSystem) {
            try DatabaseConfiguration.resolve("blocker/game.sqlite", registry: registry).openWriter()
        }
        #expect(directoryError?.message.hasPrefix("creating the directory of blocker/game.sqlite:") == true)

        try Data(repeating: 0x5A, count: 4096).write(to: directory.url.appendingPathComponent("garbage.sqlite"))
        let openError = expectThrows(.sqlite) {
            try DatabaseConfiguration.resolve("garbage.sqlite", registry: registry).openWriter()
        }
        #expect(openError?.resultCode == .notADatabase)
        #expect(openError?.message.hasPrefix("opening garbage.sqlite:") == true)
    }

    @Test(.enabled(if: !SQLiteEngine.isSQLCipher))
    func keysWithoutSQLCipherAreAnErrorAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("sub/secret.sqlite"))
        configuration.secretKeys = ["key"]
        let error = expectThrows(.encryptionUnavailable) { try configuration.openWriter() }
        #expect(error?.description.contains("key\"") == false)
        expectThrows(.encryptionUnavailable) { try configuration.openReader() }
        #expect(!FileManager.default.fileExists(atPath: directory.path("sub")))

        let conn = try Connection.inMemory()
        expectThrows(.encryptionUnavailable) { try conn.changeEncryptionKey(to: "key") }
        expectThrows(.encryptionUnavailable) { try conn.exportPlaintext(to: directory.path("copy.sqlite")) }
        try conn.close()
    }

    @Test func emptyPathIsAConfigurationErrorNotAnInMemoryDatabase() async throws {
        let configuration = DatabaseConfiguration(path: "")
        #expect(!configuration.isInMemory)
        expectThrows(.configuration) { try configuration.openWriter() }
        expectThrows(.configuration) { try configuration.openReader() }
        await #expect { try await Database.open(configuration: configuration) } throws: { isDatabaseError($0, .configuration) }
        #expect(DatabaseConfiguration(path: ":memory:").isInMemory)
    }
}

extension DatabaseConfigurationTests {
    @Test func printingOrDumpingAConfigurationNeverShowsItsKeys() {
        var configuration = DatabaseConfiguration(path: "/srv/game.sqlite")
        configuration.secretKeys = ["k3y-alpha", "k3y-beta"]
        configuration.migrator = Migrator(initialVersion: "1")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: configuration), String(reflecting: configuration), "\(configuration)", dumped] {
            #expect(!text.contains("k3y"))
            #expect(text.contains("game.sqlite"))
        }
        #expect(configuration.description == "DatabaseConfiguration(game.sqlite at /srv/game.sqlite, 2 key(s) redacted, migrator to \"1\")")
    }
}
