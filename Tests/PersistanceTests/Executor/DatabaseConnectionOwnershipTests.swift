import Foundation
import Testing

@testable import Persistance

/// A connection a database lends to a block belongs to the database: nobody else can close
/// it, from outside the block (it escaped) or inside it, and trying never disturbs the
/// database's other work.
@Suite(.timeLimit(.minutes(3))) struct DatabaseConnectionOwnershipTests {
    /// Carries an escaped connection to other threads, which is exactly the misuse tested here.
    private final class EscapedConnection: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }

    @Test(arguments: ["test.sqlite", ":memory:"])
    func closingAnEscapedConnectionThrows(_ name: String) async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, name)
        let outcomes = try await onThread {
            let reader = try db.readSync { conn in conn }
            let writer = try db.writeSync { conn in conn }
            return [Result { try reader.close() }, Result { try writer.close() }]
        }
        for outcome in outcomes {
            expectFailure(outcome, .connectionEscaped)
        }
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    @Test func closingTheLentConnectionInsideItsBlockThrows() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory)
        let closeInRead = Result { try db.readSync { conn in try conn.close() } }
        let closeInWrite = Result { try db.writeSync { conn in try conn.close() } }
        expectFailure(closeInRead, .misuse)
        expectFailure(closeInWrite, .misuse)
        let stillOpen = try db.readSync { conn in !conn.isClosed }
        #expect(stillOpen)
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        #expect(try await db.read { conn in try rowCount(conn) } == 1)
        try await closeWithinTimeout(db)
    }

    /// Closes escaped reader and writer connections from several threads while reads and
    /// writes run on them: every close throws, every read and write succeeds, nothing crashes.
    @Test func closeRacingReadsNeitherCrashesNorBreaksThem() async throws {
        let directory = try TemporaryDirectory()
        let db = try await openTestDatabase(directory, readerCount: 2)
        let escaped = try await onThread {
            [EscapedConnection(try db.readSync { $0 }), EscapedConnection(try db.writeSync { $0 })]
        }
        let closeFailures = Guarded(0)
        let closers = (0..<4).map { index in
            Thread {
                for _ in 0..<200 {
                    let outcome = Result { try escaped[index % 2].connection.close() }
                    if case .failure(let error) = outcome, isDatabaseError(error, .connectionEscaped) {
                        closeFailures.withLock { $0 += 1 }
                    }
                }
            }
        }
        closers.forEach { $0.start() }
        let counts = try await withTimeout {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        if index.isMultiple(of: 4) {
                            try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (?)", [index]) }
                        }
                        return try await db.read { conn in try rowCount(conn) }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        try await eventually("the closing threads") { closeFailures.withLock { $0 } == 800 }
        #expect(counts.count == 200)
        #expect(try await db.read { conn in try rowCount(conn) } == 50)
        try await closeWithinTimeout(db)
    }
}
