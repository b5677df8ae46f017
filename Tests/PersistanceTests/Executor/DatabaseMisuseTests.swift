import Foundation
import Testing

@testable import Persistance

/// Misuse is reported with a typed error, never a deadlock: each call that would wait for
/// itself runs on its own thread under a timeout guard.
@Suite(.timeLimit(.minutes(3))) struct DatabaseMisuseTests {
    /// Each synchronous call that would wait for the database, from inside each kind of block.
    @Test(arguments: ["test.sqlite", ":memory:"])
    func syncCallInsideBlockThrows(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, name)
        let nestedCalls: [(String, @Sendable (Connection) throws -> Void)] = [
            ("write", { _ in try db.writeSync { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") } }),
            ("read", { _ in _ = try db.readSync { conn in try rowCount(conn) } }),
            ("close", { _ in try db.closeSync() }),
        ]
        for (call, nested) in nestedCalls {
            let outcomes = try await onThread {
                [Result { try db.readSync(nested) }, Result { try db.writeSync(nested) }]
            }
            for outcome in outcomes {
                expectFailure(outcome, .reentrantAccess, "sync \(call) inside a sync block")
            }
            await #expect("sync \(call) inside an async read") {
                try await withTimeout { try await db.read(nested) }
            } throws: { isDatabaseError($0, .reentrantAccess) }
            await #expect("sync \(call) inside an async write") {
                try await withTimeout { try await db.write(nested) }
            } throws: { isDatabaseError($0, .reentrantAccess) }
        }
        #expect(!db.isClosed)
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await closeWithinTimeout(db)
    }

    @Test func escapedConnectionThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let escaped = try await onThread {
            let reader = try db.readSync { conn in conn }
            let writer = try db.writeSync { conn in conn }
            let statement = try db.writeSync { conn in try conn.prepare("SELECT count(*) FROM t") }
            return [
                Result { try reader.execute("SELECT 1") },
                Result { try writer.execute("INSERT INTO t(value) VALUES (1)") },
                Result { _ = try writer.sqliteHandle() },
                Result { _ = try statement.step() },
            ] as [Result<Void, any Error>]
        }
        for outcome in escaped {
            expectFailure(outcome, .connectionEscaped)
        }
        #expect(try await db.read { conn in try rowCount(conn) } == 0)
        try await closeWithinTimeout(db)
    }

    @Test func readerCountBelowOneThrows() throws {
        let directory = try TemporaryDirectory()
        #expect {
            try Database.openSync(configuration: testConfiguration(directory.path("test.sqlite")), readerCount: 0)
        } throws: { isDatabaseError($0, .misuse) }
    }
}
