import Foundation
import Testing

@testable import Persistance

@Suite struct DatabaseOpenByNameTests {
    struct Target_scores: ConfigurationTarget {
        let directory: String
        func filePath(for database: String) -> String? { "\(directory)/files/\(database)" }
        func migrator(for database: String) -> Migrator? {
            Migrator(initialVersion: "1", steps: [
                MigrationStep("2") { conn in try conn.execute("CREATE TABLE IF NOT EXISTS score(points INTEGER)") },
            ])
        }
    }

    @Test func resolvesTheTargetFromTheNameAndSharesOneExecutor() async throws {
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry(defaultDirectory: directory.path("default"))
        try registry.register(Target_scores(directory: directory.url.path))

        let database = try await Database.open("scores_2026.sqlite", registry: registry)
        #expect(database.path.hasSuffix("/files/scores_2026.sqlite"))
        try await database.write { conn in
            try conn.execute("CREATE TABLE IF NOT EXISTS score(points INTEGER); INSERT INTO score VALUES (7)")
        }
        let again = try await Database.open("scores_2026.sqlite", registry: registry)
        #expect(again === database)
        #expect(try again.readSync { try $0.fetchOne(Int.self, "SELECT points FROM score") } == 7)
        try await database.close()
    }

    @Test func aNameWithoutATargetUsesTheDefaultDirectory() async throws {
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry(defaultDirectory: directory.path("default"))
        let database = try await Database.open("loose_file.sqlite", registry: registry)
        #expect(database.path == URL(fileURLWithPath: directory.path("default/loose_file.sqlite")).resolvingSymlinksInPath().path)
        try await database.close()
    }

    @Test func opensByNameFromSynchronousCode() throws {
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry(defaultDirectory: directory.url.path)
        let database = try Database.openSync("sync_open.sqlite", registry: registry)
        try database.writeSync { try $0.execute("CREATE TABLE t(a)") }
        #expect(try database.readSync { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 0)
        try database.closeSync()
    }

    @Test func aBadNameIsATypedError() async throws {
        let directory = try TemporaryDirectory()
        let registry = TargetRegistry(defaultDirectory: directory.url.path)
        await #expect { try await Database.open("", registry: registry) } throws: { isDatabaseError($0, .configuration) }
        await #expect { try await Database.open("a\u{0}b.sqlite", registry: registry) } throws: {
            isDatabaseError($0, .configuration)
        }
    }
}
