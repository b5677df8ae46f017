import Foundation
import Testing

@testable import Persistance

/// Removal events carry the removed documents, as add and update events carry theirs: in
/// `events()` and in the `SRPPLIST_<NAME>_REMOVE` notification's `userInfo`.
@Suite("Document removal events")
struct DocumentRemovalEventTests {
    @Test("remove(where:) announces every removed document as it was")
    func removedDocumentsInEvents() async throws {
        let fixture = try await DocumentFixture()
        let stored = try await fixture.users.add(contentsOf: [["name": "Ann", "age": 30], ["name": "Bob", "age": 40], ["name": "Cid"]])
        let events = Collector(fixture.users.events())
        try await fixture.users.remove(where: DocumentField("age") >= 30)
        let batch = fixture.users.beginCaching()
        try await batch.remove(stored[2])
        try await batch.save()
        let received = try await events.waitFor(2)
        #expect(received == [.removed(Array(stored.prefix(2))), .removed([stored[2]])])
        #expect(received.first?.ids == stored.prefix(2).map(DocumentCollection.id(of:)))
        await events.cancel()
    }

    @Test("the SRPPLIST_<NAME>_REMOVE notification carries the removed documents in userInfo")
    func removedDocumentsInNotifications() async throws {
        let center = NotificationCenter()
        // (name, Id, whether tags came as an array) of each removed document posted.
        let posted = Guarded([(String?, String?, Bool)]())
        let token = center.addObserver(forName: Notification.Name("SRPPLIST_USERS_REMOVE"), object: nil, queue: nil) { note in
            let documents = note.userInfo?["documents"] as? [[String: Any]] ?? []
            let summaries = documents.map { ($0["name"] as? String, $0["Id"] as? String, $0["tags"] is [Any]) }
            posted.withLock { $0.append(contentsOf: summaries) }
        }
        defer { center.removeObserver(token) }
        let fixture = try await DocumentFixture(notificationCenter: center)
        let ann = try await fixture.users.add(["name": "Ann", "tags": ["a"]])
        try await fixture.users.remove(ann)
        try await eventually { posted.withLock { !$0.isEmpty } }
        let removed = posted.withLock { $0 }
        #expect(removed.count == 1)
        #expect(removed.first?.0 == "Ann" && removed.first?.1 == ann["Id"]?.stringValue && removed.first?.2 == true)
    }
}
