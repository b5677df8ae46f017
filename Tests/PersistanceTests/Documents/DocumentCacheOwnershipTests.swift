import Foundation
import Testing

@testable import Persistance

/// The write-back cache as SRPPlist had it (`save` writes and caching goes on; `cache = NO`
/// is a step of its own), and owned by whoever began it: a handle, not a state of the
/// collection shared by every caller in the process.
@Suite("Document cache ownership and SRPPlist's save")
struct DocumentCacheOwnershipTests {
    @Test("save writes the pending changes in one transaction, reports it, and caching goes on")
    func saveKeepsCaching() async throws {
        let fixture = try await DocumentFixture()
        let batch = fixture.users.beginCaching()
        #expect(try await batch.save() == false)  // nothing pending
        try await batch.add(contentsOf: [["name": "Ann"], ["name": "Bob"]])
        #expect(try await batch.save())
        #expect(batch.isCaching && !batch.hasUnsavedChanges)
        #expect(try await fixture.storedCount() == 2)
        // Still caching: the next change stays in memory until the next save.
        try await batch.add(["name": "Cid"])
        #expect(try await fixture.storedCount() == 2)
        #expect(try await batch.count() == 3)
        #expect(try await batch.save())
        #expect(try await batch.save() == false)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann", "Bob", "Cid"])
        #expect(try await fixture.users.save() == false)  // the collection itself never caches
    }

    @Test("ending caching with unsaved changes is an error that keeps them; after a save it writes through")
    func endCachingNeverLosesChanges() async throws {
        let fixture = try await DocumentFixture()
        let batch = fixture.users.beginCaching()
        try await batch.add(["name": "Ann"])
        let error = #expect(throws: DatabaseError.self) { try batch.endCaching() }
        #expect(error?.kind == .unsavedDocumentChanges)
        #expect(batch.isCaching && batch.hasUnsavedChanges)
        #expect(try await batch.count() == 1)
        try await batch.save()
        try batch.endCaching()  // SRPPlist: [_db save]; _db.cache = NO;
        #expect(!batch.isCaching)
        try await batch.add(["name": "Bob"])
        #expect(try await fixture.storedCount() == 2)  // written through
        // Discarding explicitly is the other way out.
        let second = fixture.users.beginCaching()
        try await second.add(["name": "Cid"])
        second.discard()
        try second.endCaching()
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann", "Bob"])
    }

    @Test("one owner's save never writes another's half-done batch, nor its discard drops it")
    func handlesAreSeparate() async throws {
        let fixture = try await DocumentFixture()
        let first = fixture.users.beginCaching()
        let second = fixture.users.beginCaching()
        try await first.add(["name": "first 1"])
        try await second.add(["name": "second 1"])
        // Other code writes through meanwhile.
        try await fixture.users.add(["name": "direct"])
        #expect(try await fixture.storedCount() == 1)
        #expect(try await first.save())
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["direct", "first 1"])
        // Each handle reads its own pending changes, not the other's.
        try await first.add(["name": "first 2"])
        #expect(try await first.count(where: DocumentField("name") == "second 1") == 0)
        #expect(try await second.count(where: DocumentField("name") == "second 1") == 1)
        second.discard()
        #expect(first.hasUnsavedChanges)
        #expect(try await first.save())
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["direct", "first 1", "first 2"])
    }

    @Test("concurrent owners each save exactly their own documents")
    func concurrentOwners() async throws {
        let fixture = try await DocumentFixture()
        let users = fixture.users
        try await withThrowingTaskGroup(of: Void.self) { group in
            for owner in 0..<4 {
                group.addTask {
                    let batch = users.beginCaching()
                    for index in 0..<25 {
                        try await batch.createOrUpdate(["owner": .int(Int64(owner)), "index": .int(Int64(index))], where: nil)
                    }
                    if owner == 3 { batch.discard() } else { try await batch.save() }
                    try batch.endCaching()
                }
            }
            try await group.waitForAll()
        }
        for owner in 0..<4 {
            #expect(try await users.count(where: DocumentField("owner") == owner) == (owner == 3 ? 0 : 25))
        }
    }

    @Test("withCaching saves what its body left unsaved, and discards it when the body throws")
    func scopedCaching() async throws {
        struct Refused: Error {}
        let fixture = try await DocumentFixture()
        let count = try await fixture.users.withCaching { batch in
            try await batch.add(["name": "Ann"])
            return try await batch.count()
        }
        #expect(count == 1)
        await #expect(throws: Refused.self) {
            try await fixture.users.withCaching { batch in
                try await batch.add(["name": "half-done"])
                throw Refused()
            }
        }
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann"])
    }

    @Test("a handle dropped with unsaved changes says so in a warning; one saved or discarded says nothing")
    func droppedHandleWarns() async throws {
        let directory = try TemporaryDirectory()
        let logs = CapturingLogHandler.Store()
        var configuration = DatabaseConfiguration(path: directory.path("documents.sqlite"))
        configuration.logger = CapturingLogHandler.logger(logs, level: .warning)
        let db = try await Database.open(configuration: configuration)
        let users = try await db.collection("users")
        try await Self.cache(["name": "saved"], in: users) { try await $0.save() }
        try await Self.cache(["name": "discarded"], in: users) { $0.discard() }
        #expect(logs.entries(at: .warning).isEmpty)
        try await Self.cache(["name": "dropped"], in: users) { _ in }
        let warned = logs.entries(at: .warning).map(\.text).contains { $0.contains("unsaved changes") && $0.contains("users") }
        #expect(warned)
        #expect(DocumentFixture.names(try await users.queryAll()) == ["saved"])
        try await db.close()
    }

    /// Adds `document` through a new caching handle, runs `end` on it, and lets it go.
    private static func cache(
        _ document: Document, in collection: DocumentCollection, end: (DocumentCollection) async throws -> Void
    ) async throws {
        let handle = collection.beginCaching()
        try await handle.add(document)
        try await end(handle)
    }
}
