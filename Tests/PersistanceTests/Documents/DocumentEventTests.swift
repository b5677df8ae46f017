import Foundation
import Testing

@testable import Persistance

@Suite("Document events")
struct DocumentEventTests {
    @Test("events come after commit, in order, with ids and documents")
    func eventsInOrder() async throws {
        let fixture = try await DocumentFixture()
        let events = Collector(fixture.users.events())
        let ann = try await fixture.users.add(["name": "Ann"])
        try await fixture.users.update(["age": 31], where: DocumentField("name") == "Ann")
        try await fixture.users.remove(ann)
        try await fixture.users.add(["name": "Bob"])
        _ = try await fixture.users.removeAll()
        let received = try await events.waitFor(5)
        #expect(received.count == 5)
        guard received.count == 5 else { return }
        #expect(received[0] == .added([ann]))
        guard case .updated(let updated) = received[1] else { Issue.record("not an update: \(received[1])"); return }
        #expect(updated.map { $0["age"] } == [31] && received[1].ids == [ann["Id"]?.stringValue])
        #expect(received[2] == .removed([updated[0]]) && received[2].ids == [ann["Id"]!.stringValue!])
        #expect(received[3].documents.map { $0["name"] } == ["Bob"])
        #expect(received[4] == .removedAll)
        await events.cancel()
    }

    @Test("nothing is announced for rolled-back changes or other collections")
    func rollbackAndOtherCollectionsAreSilent() async throws {
        let fixture = try await DocumentFixture()
        let pets = try await fixture.db.collection("pets")
        let events = Collector(fixture.users.events())
        try await pets.add(["name": "Rex"])
        await #expect(throws: DatabaseError.self) {
            try await fixture.users.add(contentsOf: [["name": "Ann"], ["bad": .double(.infinity)]])
        }
        // A failure inside the write (a trigger refuses the second document): rolled back, silent.
        try await fixture.db.write { conn in
            try conn.execute("""
                CREATE TRIGGER refuse BEFORE INSERT ON persistance_documents
                WHEN NEW.body LIKE '%"refused"%' BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        await #expect(throws: DatabaseError.self) {
            try await fixture.users.add(contentsOf: [["name": "Ann"], ["name": "refused"]])
        }
        try await fixture.users.add(["name": "Bob"])
        let received = try await events.waitFor(1)
        #expect(received.map(\.documents).map(DocumentFixture.names) == [["Bob"]])
        #expect(try await fixture.users.count() == 1)
        await events.cancel()
    }

    @Test("while a handle caches nothing is announced; its save announces the batch in order")
    func cacheAnnouncesOnSave() async throws {
        let fixture = try await DocumentFixture()
        let events = Collector(fixture.users.events())
        let batch = fixture.users.beginCaching()
        try await batch.add(["name": "Ann"])
        try await batch.update(["n": 1], where: DocumentField("name") == "Ann")
        #expect(events.elements.isEmpty)
        try await batch.save()
        try await fixture.users.add(["name": "after save"])
        let received = try await events.waitFor(3)
        #expect(received.map(\.notificationSuffix) == ["ADD", "UPDATE", "ADD"])
        #expect(received[2].documents.map { $0["name"] } == ["after save"])
        await events.cancel()
    }

    @Test("SRPPLIST_<NAME>_… notifications are posted with ids and documents in userInfo")
    func notificationCenterNames() async throws {
        let center = NotificationCenter()
        let posted = Guarded([(String, [String], Int)]())
        var tokens: [any NSObjectProtocol] = []
        for suffix in ["ADD", "UPDATE", "REMOVE", "REMOVEALL"] {
            tokens.append(center.addObserver(forName: Notification.Name("SRPPLIST_USERS_\(suffix)"), object: nil, queue: nil) { note in
                let ids = note.userInfo?["ids"] as? [String] ?? []
                let documents = note.userInfo?["documents"] as? [[String: Any]] ?? []
                posted.withLock { $0.append((note.name.rawValue, ids, documents.count)) }
            })
        }
        defer { tokens.forEach(center.removeObserver) }
        let fixture = try await DocumentFixture(notificationCenter: center)
        #expect(fixture.users.notificationName(.removedAll).rawValue == "SRPPLIST_USERS_REMOVEALL")
        let ann = try await fixture.users.add(["name": "Ann"])
        try await fixture.users.update(ann)
        try await fixture.users.remove(ann)
        try await fixture.users.add(["name": "Bob"])
        _ = try await fixture.users.removeAll()
        try await eventually { posted.withLock { $0.count } == 5 }
        let names = posted.withLock { $0.map(\.0) }
        #expect(names == ["SRPPLIST_USERS_ADD", "SRPPLIST_USERS_UPDATE", "SRPPLIST_USERS_REMOVE", "SRPPLIST_USERS_ADD",
                          "SRPPLIST_USERS_REMOVEALL"])
        let annID = try #require(ann["Id"]?.stringValue)
        #expect(posted.withLock { $0[0].1 == [annID] && $0[0].2 == 1 && $0[2].1 == [annID] && $0[2].2 == 1 })
    }
}
