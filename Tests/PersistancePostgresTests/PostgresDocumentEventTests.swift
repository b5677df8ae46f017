#if PostgreSQL
import Foundation
import Persistance
import Testing

@testable import PersistancePostgres

/// Document events on PostgreSQL beyond the conformance suite: a retried transaction, other
/// app instances, closing, and the publishing order of the event hub. The time limit is a
/// safety net for an event that never comes, not a timing check.
@Suite(.timeLimit(.minutes(2))) struct PostgresDocumentEventTests {
    @Test func aTransactionRunAgainAfterAConflictAnnouncesOnlyItsLastRun() async throws {
        let db = try await TestServer.open()
        let users = try await db.documents(uniqueTableName("users"))
        var events = users.events().makeAsyncIterator()
        let attempts = Counter()
        let kept = try await db.write { tx in
            attempts.increment()
            let added = try await users.on(tx).add(["attempt": .int(Int64(attempts.value))])
            if attempts.value == 1 {
                try await tx.execute(
                    "DO $$ BEGIN RAISE EXCEPTION 'lost to another transaction' USING ERRCODE = 'serialization_failure'; END $$")
            }
            return added
        }
        let last = try await users.add(["name": "last"])
        #expect(attempts.value == 2 && kept["attempt"] == 2)
        let received = [await events.next(), await events.next()]
        #expect(received == [.added([kept]), .added([last])])
        await db.close()
    }

    @Test func otherInstancesWritesAreNotDocumentEvents() async throws {
        let db = try await TestServer.open()
        let other = try await TestServer.open()
        let name = uniqueTableName("users")
        let users = try await db.documents(name)
        var events = users.events().makeAsyncIterator()
        try await other.documents(name).add(["name": "from the other instance"])
        let own = try await users.add(["name": "own"])
        let first = await events.next()
        #expect(first == .added([own]))
        #expect(try await users.count() == 2)
        await other.close()
        await db.close()
    }

    @Test func streamsEndWhenTheDatabaseCloses() async throws {
        let db = try await TestServer.open()
        let users = try await db.documents(uniqueTableName("users"))
        var open = users.events().makeAsyncIterator()
        await db.close()
        let openEnds = await open.next()
        var afterClose = users.events().makeAsyncIterator()
        let afterCloseEnds = await afterClose.next()
        #expect(openEnds == nil && afterCloseEnds == nil)
    }

    @Test func theHubPublishesInTicketOrderAndSkipsFailedCommits() async throws {
        let hub = PostgresDocumentEventHub()
        var events = hub.events(of: "users").makeAsyncIterator()
        let (first, second, failed, fourth) = (hub.ticket(), hub.ticket(), hub.ticket(), hub.ticket())
        let documents: [Document] = (0..<4).map { ["n": .int(Int64($0))] }
        // Resolved out of order: published in ticket order; another collection's events skipped.
        hub.resolve(fourth, with: [("users", .added([documents[3]]))])
        hub.resolve(second, with: [("users", .added([documents[1]])), ("others", .removedAll)])
        hub.resolve(failed, with: [])
        hub.resolve(first, with: [("users", .added([documents[0]])), ("users", .removed([documents[0]]))])
        var received: [DocumentEvent] = []
        for _ in 0..<4 {
            let next = await events.next()
            received.append(try #require(next))
        }
        #expect(received == [.added([documents[0]]), .removed([documents[0]]), .added([documents[1]]), .added([documents[3]])])
        hub.close()
        let end = await events.next()
        #expect(end == nil)
    }

    @Test func aSavepointRolledBackDropsItsEventsOnly() async throws {
        var pending = PendingDocumentEvents()
        pending.append(.removedAll, of: "a")
        let mark = pending.mark
        pending.append(.added([["n": 1]]), of: "b")
        pending.rollBack(to: mark)
        pending.rollBack(to: mark)
        #expect(pending.events.map(\.collection) == ["a"])
    }
}
#endif
