import Foundation
import Testing

@testable import Persistance

/// The write-back cache of the portable document collection (`beginCaching()`), on every
/// engine (see `ConformanceBackend`), with the SQLite `DocumentCollection`'s semantics.
@Suite struct DocumentCacheConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func onlyTheCachingHandleSeesItsUnsavedChanges(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkUnsavedChangesAreTheHandles(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func saveWritesEverythingAndAnnouncesItInOrder(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkSave(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aFailedSaveWritesNothingAndKeepsTheChanges(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkFailedSave(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func discardAndEndCaching(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkDiscardAndEnd(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func withCachingSavesOrDiscards(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkWithCaching(db) }
    }
}

private func names(_ documents: [Document]) -> [String] {
    documents.compactMap { $0["name"]?.stringValue }
}

private func checkUnsavedChangesAreTheHandles(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    try await users.add(["name": "Ann"])
    let batch = users.beginCaching()
    #expect(batch.isCaching && !users.isCaching && !batch.hasUnsavedChanges)
    try await batch.add(["name": "Bob"])
    try await batch.save(["Id": "cy", "name": "Cy"])
    #expect(batch.hasUnsavedChanges)
    #expect(names(try await batch.query(where: nil)) == ["Ann", "Bob", "Cy"])
    #expect(try await batch.count(where: DocumentField("name") >= "B") == 2)
    #expect(names(try await batch.query(where: nil, sort: [DocumentField("name").descending], limit: 1, offset: 1)) == ["Bob"])
    #expect(try await batch.document(withID: "cy")?["name"] == "Cy")
    // Others see the database only.
    #expect(names(try await users.query(where: nil)) == ["Ann"])
    #expect(try await users.document(withID: "cy") == nil)
    // Bad input fails on the cache as it does in the database.
    let badLimit = await thrownError { try await batch.query(where: nil, limit: -1) }
    let noID = await thrownError { try await batch.replace(["name": "no Id"]) }
    #expect((badLimit as? DatabaseError)?.kind == .invalidQuery && (noID as? DatabaseError)?.kind == .missingDocumentID)
    try await batch.save()
}

private func checkSave(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let ann = try await users.add(["name": "Ann"])
    let bob = try await users.add(["name": "Bob"])
    let events = users.events()
    let batch = users.beginCaching()
    let cy = try await batch.add(["name": "Cy"])
    var anna = ann
    anna["name"] = "Anna"
    #expect(try await batch.replace(anna))
    let annaStored = try #require(try await batch.document(withID: DocumentCollection.id(of: ann)))
    #expect(try await batch.remove(where: DocumentField("name") == "Bob") == 1)
    // Bob removed, then stored again under his Id: he goes to the end, as in the database.
    let bobby = try await batch.save(["Id": bob["Id"]!, "name": "Bobby"])
    #expect(try await batch.remove(id: DocumentCollection.id(of: cy)))
    #expect(try await batch.save())
    #expect(!batch.hasUnsavedChanges)
    #expect(try await batch.save() == false)
    #expect(names(try await users.query(where: nil)) == ["Anna", "Bobby"])
    #expect(try await users.query(where: nil) == [annaStored, bobby])
    let received = try await firstEvents(5, of: events)
    #expect(received == [.added([cy]), .updated([annaStored]), .removed([bob]), .added([bobby]), .removed([cy])])
    // Caching goes on after a save: the next changes stay in memory.
    try await batch.removeAll()
    #expect(try await users.count() == 2)
    #expect(try await batch.count() == 0)
    try await batch.save()
    #expect(try await users.count() == 0)
    #expect(try await firstEvents(1, of: events) == [.removedAll])
}

private func checkFailedSave(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let events = users.events()
    let batch = users.beginCaching()
    try await batch.add(["name": "Ann"])
    try await batch.save(["Id": "taken", "name": "cached"])
    // Written around the cache: saving the cached document under the same Id now fails.
    let stored = try await users.save(["Id": "taken", "name": "stored"])
    let failure = await thrownError { try await batch.save() }
    #expect((failure as? DatabaseError)?.condition == .uniqueViolation)
    // Nothing written (Ann was inserted first, in the same transaction), the changes kept.
    #expect(try await users.query(where: nil) == [stored])
    #expect(batch.hasUnsavedChanges)
    #expect(names(try await batch.query(where: nil)) == ["Ann", "cached"])
    let ending = await thrownError { try batch.endCaching() }
    #expect((ending as? DatabaseError)?.kind == .unsavedDocumentChanges && batch.isCaching)
    // Discarded: the handle starts again from the database, and saves what it changes then.
    batch.discard()
    #expect(!batch.hasUnsavedChanges)
    #expect(try await batch.query(where: nil) == [stored])
    let renamed = try await batch.save(["Id": "taken", "name": "renamed"])
    try await batch.save()
    #expect(try await users.query(where: nil) == [renamed])
    // Only the committed changes were announced: the failed save's never.
    #expect(try await firstEvents(2, of: events) == [.added([stored]), .updated([renamed])])
}

private func checkDiscardAndEnd(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let batch = users.beginCaching()
    try await batch.add(["name": "dropped"])
    batch.discard()
    #expect(!batch.hasUnsavedChanges && batch.isCaching)
    #expect(try await batch.save() == false)
    #expect(try await batch.count() == 0)
    try await batch.add(["name": "kept"])
    let ending = await thrownError { try batch.endCaching() }
    #expect((ending as? DatabaseError)?.kind == .unsavedDocumentChanges)
    try await batch.save()
    try batch.endCaching()
    #expect(!batch.isCaching)
    // From now on the handle writes through.
    try await batch.add(["name": "through"])
    #expect(!batch.hasUnsavedChanges)
    #expect(names(try await users.query(where: nil)) == ["kept", "through"])
    // The collection itself neither caches nor saves.
    #expect(try await users.save() == false)
    users.discard()
    try users.endCaching()
    #expect(try await users.count() == 2)
}

private func checkWithCaching(_ db: some AsyncDatabase) async throws {
    let users = try await db.documents(uniqueName("users"))
    let added = try await users.withCaching { batch in
        let added = try await batch.add(contentsOf: [["name": "Ann"], ["name": "Bob"]])
        let seenOutside = try await users.count()
        #expect(seenOutside == 0)
        return added
    }
    #expect(try await users.query(where: nil) == added)
    let thrown = await thrownError {
        try await users.withCaching { batch in
            try await batch.removeAll()
            throw AbandonedBlock()
        }
    }
    #expect(thrown is AbandonedBlock)
    #expect(try await users.count() == 2)
}
