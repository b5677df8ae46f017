import Foundation
import Testing

@testable import Persistance

/// Document operations inside the caller's own transaction (`collection.on(conn)`), beside
/// table writes: they commit and roll back together, and events come only after a commit.
@Suite("Documents in the caller's transactions")
struct DocumentTransactionTests {
    private static func makeLedger(_ fixture: DocumentFixture) async throws {
        try await fixture.db.write { conn in try conn.execute("CREATE TABLE ledger(entry TEXT NOT NULL)") }
    }

    private static func ledgerCount(_ fixture: DocumentFixture) async throws -> Int {
        try await fixture.db.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM ledger") ?? -1 }
    }

    @Test("documents and table rows written in one write block commit together; events follow the commit")
    func commitTogether() async throws {
        let fixture = try await DocumentFixture()
        try await Self.makeLedger(fixture)
        let events = Collector(fixture.users.events())
        let users = fixture.users
        let ann = try await fixture.db.write { conn in
            try conn.execute("INSERT INTO ledger(entry) VALUES ('Ann joined')")
            let ann = try users.on(conn).add(["name": "Ann"])
            try users.on(conn).update(["age": 31], where: DocumentField("name") == "Ann")
            #expect(try users.on(conn).count(where: DocumentField("age") == 31) == 1)  // sees its own writes
            return ann
        }
        #expect(try await Self.ledgerCount(fixture) == 1)
        #expect(try await fixture.users.count() == 1)
        let received = try await events.waitFor(2)
        #expect(received.map(\.notificationSuffix) == ["ADD", "UPDATE"])
        #expect(received.first == .added([ann]))
        await events.cancel()
    }

    @Test("a write block that throws rolls the documents back with the table rows, and announces nothing")
    func rollBackTogether() async throws {
        struct Refused: Error {}
        let fixture = try await DocumentFixture()
        try await Self.makeLedger(fixture)
        let kept = try await fixture.users.add(["name": "kept"])
        let events = Collector(fixture.users.events())
        let users = fixture.users
        await #expect(throws: Refused.self) {
            try await fixture.db.write { conn in
                try conn.execute("INSERT INTO ledger(entry) VALUES ('rolled back')")
                try users.on(conn).add(["name": "rolled back"])
                try users.on(conn).remove(kept)
                throw Refused()
            }
        }
        // A savepoint that rolls back takes its documents (and their events) with it.
        try await fixture.db.write { conn in
            try conn.execute("INSERT INTO ledger(entry) VALUES ('committed')")
            _ = try? conn.savepoint { () throws -> Void in
                try users.on(conn).add(["name": "in a rolled-back savepoint"])
                throw Refused()
            }
            try users.on(conn).add(["name": "committed"])
        }
        #expect(try await Self.ledgerCount(fixture) == 1)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["kept", "committed"])
        let received = try await events.waitFor(1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(events.elements.count == 1)
        #expect(received.first.map { DocumentFixture.names($0.documents) } == ["committed"])
        await events.cancel()
    }

    @Test("a caching handle's on(conn) writes to the database, not to its cache")
    func handleOnConnectionWritesThrough() async throws {
        let fixture = try await DocumentFixture()
        let batch = fixture.users.beginCaching()
        try await batch.add(["name": "cached"])
        _ = try await fixture.db.write { conn in try batch.on(conn).add(["name": "direct"]) }
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["direct"])
        batch.discard()
    }
}
