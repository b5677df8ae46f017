import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseRegistryTests {
    @Test func opensOfOneFileShareOneExecutor() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        let db = try await Database.open(configuration: testConfiguration(path))
        try FileManager.default.createDirectory(atPath: directory.path("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.path("link.sqlite"), withDestinationPath: path)
        for alias in [path, Self.relativePath(path), directory.path("sub/../test.sqlite"), directory.path("link.sqlite")] {
            let other = try await Database.open(configuration: testConfiguration(alias))
            #expect(other === db, "\(alias)")
        }
        #expect(db.path == DatabasePath.canonical(path))
        let different = try await Database.open(configuration: testConfiguration(directory.path("other.sqlite")))
        #expect(different !== db)
        try await closeWithinTimeout(different)
        try await closeWithinTimeout(db)
    }

    @Test func fileNotCreatedYetIsFoundThroughItsDirectory() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.path("alias"), withDestinationPath: directory.path("real"))
        #expect(DatabasePath.canonical(directory.path("alias/new.sqlite")) == DatabasePath.canonical(directory.path("real/new.sqlite")))
        let db = try await Database.open(configuration: testConfiguration(directory.path("alias/new.sqlite")))
        let other = try await Database.open(configuration: testConfiguration(directory.path("real/new.sqlite")))
        #expect(other === db)
        #expect(FileManager.default.fileExists(atPath: directory.path("real/new.sqlite")))
        try await closeWithinTimeout(db)
    }

    /// The folder does not exist at the first open, so the path can't be resolved then; the
    /// file is created at that open and every later path finds it by device and inode.
    @Test func fileInAFolderCreatedAtOpenIsFoundThroughASymlinkedParent() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.path("link"), withDestinationPath: directory.path("real"))
        let db = try await Database.open(configuration: testConfiguration(directory.path("link/new-folder/db.sqlite")))
        let other = try await Database.open(configuration: testConfiguration(directory.path("real/new-folder/db.sqlite")))
        #expect(other === db)
        #expect(db.path == DatabasePath.canonical(directory.path("real/new-folder/db.sqlite")))
        try await closeWithinTimeout(db)
    }

    /// Opens of a file that does not exist yet, through two paths whose canonical forms differ
    /// until the folder exists, racing each other: one executor.
    @Test func racingOpensOfANewFileThroughTwoPathsShareOneExecutor() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: directory.path("link"), withDestinationPath: directory.path("real"))
        let paths = [directory.path("link/new-folder/db.sqlite"), directory.path("real/new-folder/db.sqlite")]
        let databases = try await withTimeout {
            try await withThrowingTaskGroup(of: Database.self) { group in
                for index in 0..<8 {
                    group.addTask { try await Database.open(configuration: testConfiguration(paths[index % 2])) }
                }
                return try await group.reduce(into: [Database]()) { $0.append($1) }
            }
        }
        #expect(Set(databases.map(ObjectIdentifier.init)).count == 1)
        try await databases[0].write { conn in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, value INTEGER); INSERT INTO t(value) VALUES (1)")
        }
        try await closeWithinTimeout(databases[0])
    }

    @Test func hardLinksShareOneExecutor() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        try FileManager.default.linkItem(atPath: directory.path("test.sqlite"), toPath: directory.path("hard-link.sqlite"))
        let other = try await Database.open(configuration: testConfiguration(directory.path("hard-link.sqlite")))
        #expect(other === db)
        try await other.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    @Test func concurrentOpensShareOneExecutor() async throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory.path("test.sqlite"))
        let databases = try await withTimeout {
            try await withThrowingTaskGroup(of: Database.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        index.isMultiple(of: 2)
                            ? try await Database.open(configuration: configuration)
                            : try await onThread { try Database.openSync(configuration: configuration) }
                    }
                }
                return try await group.reduce(into: [Database]()) { $0.append($1) }
            }
        }
        #expect(Set(databases.map(ObjectIdentifier.init)).count == 1)
        try await closeWithinTimeout(databases[0])
    }

    @Test func failedOpenLeavesNoEntry() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        try Data(String(repeating: "not a database ", count: 300).utf8).write(to: URL(fileURLWithPath: path))
        await #expect { try await Database.open(configuration: testConfiguration(path)) } throws: {
            isDatabaseError($0, code: .notADatabase)
        }
        #expect(DatabaseRegistry.shared.database(atPath: path) == nil)
        // A later open tries again.
        try FileManager.default.removeItem(atPath: path)
        let db = try await Database.open(configuration: testConfiguration(path))
        try await closeWithinTimeout(db)
    }

    /// `path` relative to the current directory.
    static func relativePath(_ path: String) -> String {
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: depth) + path.drop(while: { $0 == "/" })
    }
}
