import Foundation
import Testing

@testable import Persistance

/// Document events through the portable API, on every engine (see `ConformanceBackend`):
/// announced after commit, in commit order, with the documents as stored; nothing for a
/// transaction or savepoint rolled back; on SQLite, one stream whatever API wrote.
@Suite struct DocumentEventConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func eachChangeIsAnnouncedAfterCommitInOrder(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkEventsInOrder(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func rolledBackChangesAreNeverAnnounced(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkNoEventsForRollbacks(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func concurrentWritersAnnounceEveryCommitOnce(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkConcurrentWriters(db) }
    }

    @Test func portableWritesReachTheSynchronousCollectionsStream() async throws {
        try await ConformanceBackend.sqlite.withSQLite { db in
            let synchronous = try await db.collection("users")
            let portable = try await db.documents("users")
            let synchronousEvents = synchronous.events()
            let portableEvents = portable.events()
            let ann = try await portable.add(["name": "Ann"])
            let bob = try await synchronous.add(["name": "Bob"])
            try await db.write { tx in try await portable.on(tx).removeAll() }
            let expected: [DocumentEvent] = [.added([ann]), .added([bob]), .removedAll]
            #expect(try await firstEvents(3, of: synchronousEvents) == expected)
            #expect(try await firstEvents(3, of: portableEvents) == expected)
        }
    }
}

/// What a test's block throws to roll its work back.
struct AbandonedBlock: Error {}

/// The first `count` events of `stream`; fails after a minute without them (a safety net,
/// not a timing check).
func firstEvents(_ count: Int, of stream: AsyncStream<DocumentEvent>) async throws -> [DocumentEvent] {
    let received = try await withThrowingTaskGroup(of: [DocumentEvent]?.self) { group in
        group.addTask {
            var events: [DocumentEvent] = []
            for await event in stream {
                events.append(event)
                if events.count == count { break }
            }
            return events
        }
        group.addTask {
            try await Task.sleep(for: .seconds(60))
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
    return try #require(received, "\(count) document events did not come within a minute")
}

private func checkEventsInOrder(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let events = users.events()
    let ann = try await users.add(["name": "Ann"])
    let pair = try await users.add(contentsOf: [["name": "Bob"], ["name": "Cy"]])
    var renamed = ann
    renamed["name"] = "Anna"
    #expect(try await users.replace(renamed))
    let anna = try #require(try await users.document(withID: DocumentCollection.id(of: ann)))
    let dee = try await users.save(["Id": "dee", "name": "Dee"])
    let deeAgain = try await users.save(["Id": "dee", "name": "Dee", "age": 40])
    #expect(try await users.replace(["Id": "nobody"]) == false)
    #expect(try await users.remove(id: "nobody") == false)
    // Several changes in one transaction of the caller's: announced after its commit, in order.
    let outcome = try await db.write { tx in
        let documents = users.on(tx)
        return (removed: try await documents.remove(id: "dee"), bobless: try await documents.remove(where: DocumentField("name") == "Bob"))
    }
    let removedAll = try await users.removeAll()
    #expect(try await users.removeAll() == 0)
    #expect(outcome.removed && outcome.bobless == 1 && removedAll == 2)

    let received = try await firstEvents(8, of: events)
    #expect(received == [
        .added([ann]), .added(pair), .updated([anna]), .added([dee]), .updated([deeAgain]),
        .removed([deeAgain]), .removed([pair[0]]), .removedAll,
    ])
    #expect(anna["name"] == "Anna" && deeAgain["age"] == 40)
}

private func checkNoEventsForRollbacks(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let events = users.events()
    let thrown = await thrownError {
        try await db.write { tx in
            try await users.on(tx).add(["name": "rolled back"])
            throw AbandonedBlock()
        }
    }
    #expect(thrown is AbandonedBlock)
    let kept = try await db.write { tx in
        let documents = users.on(tx)
        let kept = try await documents.add(["name": "kept"])
        _ = try? await tx.savepoint { inner in
            try await users.on(inner).add(["name": "rolled back in a savepoint"])
            try await users.on(inner).removeAll()
            throw AbandonedBlock()
        }
        return kept
    }
    let last = try await users.add(["name": "last"])
    #expect(try await firstEvents(2, of: events) == [.added([kept]), .added([last])])
    #expect(try await users.count() == 2)
}

private func checkConcurrentWriters(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let events = users.events()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for writer in 0..<4 {
            group.addTask {
                for i in 0..<5 { try await users.add(["writer": .int(Int64(writer)), "i": .int(Int64(i))]) }
            }
        }
        try await group.waitForAll()
    }
    let received = try await firstEvents(20, of: events)
    let stored = try await users.query(where: nil)
    #expect(Set(received.flatMap(\.ids)) == Set(stored.map { DocumentCollection.id(of: $0) }))
    #expect(received.flatMap(\.ids).count == 20)
    // Each writer's own changes come in the order it made them.
    let inOrder: [JSONValue?] = (0..<5).map { .int(Int64($0)) }
    for writer in 0..<4 {
        let order = received.flatMap(\.documents).filter { $0["writer"] == .int(Int64(writer)) }.map { $0["i"] }
        #expect(order == inOrder)
    }
}
