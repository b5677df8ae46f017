#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import class PostgresNIO.MultiThreadedEventLoopGroup
import Testing

/// Where a transaction's block runs (its connection's event loop, or its actor), and results
/// longer than the rows read in place, which a task of their own reads off the loop.
@Suite struct PostgresExecutionTests {
    @Test func aBlockRunsOnAnEventLoop() async throws {
        let db = try await TestServer.open()
        let onLoop = try await db.read { tx in
            _ = try await tx.fetchOne("SELECT 1")
            return MultiThreadedEventLoopGroup.currentEventLoop != nil
        }
        #expect(onLoop)
        await db.close()
    }

    @Test func aBlockIsolatedToAnActorRunsOnTheActor() async throws {
        let db = try await TestServer.open()
        let onLoop = try await Self.readOnTheMainActor(db)
        #expect(!onLoop)
        await db.close()
    }

    /// Whether a block written on the main actor ran on an event loop; it fails a precondition
    /// unless it ran on the main actor.
    @MainActor private static func readOnTheMainActor(_ db: PostgresDatabase) async throws -> Bool {
        try await db.read { tx in
            _ = try await tx.fetchOne("SELECT 1")
            MainActor.preconditionIsolated()
            return MultiThreadedEventLoopGroup.currentEventLoop != nil
        }
    }

    /// Results shorter than, as long as, and longer than the rows read in place (16).
    @Test(arguments: [1, 15, 16, 17, 40, 5000])
    func everyRowOfAResultIsReadInOrder(count: Int) async throws {
        let db = try await TestServer.open()
        let values = try await db.read { tx in
            try await tx.fetchAll("SELECT g, 'row ' || g AS label FROM generate_series(1, $1::int) AS g", [.integer(Int64(count))])
                .map { (try $0.value(at: 0, as: Int.self), try $0.value(at: 1, as: String.self)) }
        }
        #expect(values.map(\.0) == Array(1...count))
        #expect(values.map(\.1) == (1...count).map { "row \($0)" })
        await db.close()
    }

    /// A row read off the loop that does not convert fails the fetch, naming its column, and
    /// the connection, whose statement ran to its end, serves the next transaction.
    @Test func aRowReadOffTheLoopThatDoesNotConvertNamesItsColumn() async throws {
        let db = try await TestServer.open { $0.maximumConnections = 1 }
        let error = await failure {
            _ = try await db.read { tx in
                try await tx.fetchAll(
                    "SELECT g AS id, CASE WHEN g = 30 THEN NULL ELSE g END AS score FROM generate_series(1, 40) AS g", [],
                    reading: { _ in RowReader { row in try row.value(named: "score", as: Int.self) } })
            }
        }
        #expect((error as? DatabaseError)?.kind == .decoding)
        #expect((error as? DatabaseError)?.column == "score")
        #expect(try await db.read { tx in try await tx.fetchOne("SELECT 1")!.value(at: 0, as: Int.self) } == 1)
        await db.close()
    }

    /// Cancelling the task while a long result is read off the loop cancels the statement on
    /// the server, which ends the read.
    @Test func cancellingWhileALongResultIsReadEndsTheRead() async throws {
        let db = try await TestServer.open()
        let task = Task {
            try await db.read { tx in
                // One row every 10 ms, each wide enough to be sent as it is made: 30 s unless cut.
                try await tx.fetchAll(
                    "SELECT g, repeat('x', 4000) AS filler, pg_sleep(0.01) IS NULL AS slept FROM generate_series(1, 3000) AS g"
                ).count
            }
        }
        try await expectCancelled(task, after: .milliseconds(500), within: .seconds(20))
        #expect(try await db.read { tx in try await tx.fetchOne("SELECT 1")!.value(at: 0, as: Int.self) } == 1)
        await db.close()
    }
}
#endif
