import Foundation
import Testing

@testable import Persistance

/// Every connection of a file database runs with the `synchronous` setting its
/// configuration's durability asks for: NORMAL by default, FULL on request.
@Suite(.timeLimit(.minutes(3))) struct DatabaseDurabilityTests {
    /// `PRAGMA synchronous` on the writer and on two readers open at once.
    private func synchronousSettings(_ configuration: DatabaseConfiguration) async throws -> (writer: Int, readers: [Int]) {
        let db = try await Database.open(configuration: configuration, readerCount: 2)
        let writer = try await db.write { conn in try conn.fetchOne(Int.self, "PRAGMA synchronous") ?? -1 }
        // Both reads wait until both run, so they run on two different reader connections.
        let started = Guarded(0)
        let readers = try await withTimeout {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await db.read { conn in
                            started.withLock { $0 += 1 }
                            let deadline = Date().addingTimeInterval(20)
                            while started.withLock({ $0 }) < 2 {
                                guard Date() < deadline else { throw TimedOut(what: "two concurrent reads", seconds: 20) }
                                Thread.sleep(forTimeInterval: 0.001)
                            }
                            return try conn.fetchOne(Int.self, "PRAGMA synchronous") ?? -1
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(db.readers?.threadCount == 2)
        try await closeWithinTimeout(db)
        return (writer, readers)
    }

    @Test func defaultIsNormal() async throws {
        let directory = try TemporaryDirectory()
        var configuration = DatabaseConfiguration(path: directory.path("test.sqlite"))
        configuration.secretKeys = SQLiteEngine.isSQLCipher ? ["durability-key"] : []
        #expect(configuration.durability == .normal)
        let settings = try await synchronousSettings(configuration)
        #expect(settings.writer == 1)
        #expect(settings.readers == [1, 1])
    }

    /// FULL applies after the connection's own `prepare`, which here asks for NORMAL.
    @Test func fullOnRequest() async throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(directory.path("test.sqlite"))
        configuration.durability = .full
        let settings = try await synchronousSettings(configuration)
        #expect(settings.writer == 2)
        #expect(settings.readers == [2, 2])
    }

    @Test(arguments: [DatabaseConfiguration.Durability.normal, .full])
    func connectionsOpenedByTheConfigurationUseIt(_ durability: DatabaseConfiguration.Durability) throws {
        let directory = try TemporaryDirectory()
        var configuration = testConfiguration(directory.path("test.sqlite"))
        configuration.durability = durability
        let writer = try configuration.openWriter()
        let reader = try configuration.openReader()
        #expect(try writer.fetchOne(Int.self, "PRAGMA synchronous") == durability.synchronousPragmaValue)
        #expect(try reader.fetchOne(Int.self, "PRAGMA synchronous") == durability.synchronousPragmaValue)
        try reader.close()
        try writer.close()
    }
}
