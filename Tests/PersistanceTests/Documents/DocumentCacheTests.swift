import Foundation
import Testing

@testable import Persistance

@Suite("Document write-back cache")
struct DocumentCacheTests {
    @Test("while caching, changes stay in memory and reads see them; save writes them all")
    func cacheThenSave() async throws {
        let fixture = try await DocumentFixture()
        let ann = try await fixture.users.add(["name": "Ann"])
        try await fixture.users.add(["name": "Bob"])
        let batch = fixture.users.beginCaching()
        #expect(batch.isCaching && !fixture.users.isCaching)
        for index in 0..<100 {
            try await batch.createOrUpdate(["data": .int(Int64(index))], where: nil)
        }
        #expect(try await batch.update(["name": "Ann 2"], where: DocumentField("name") == "Ann"))
        #expect(try await batch.remove(where: DocumentField("name") == "Bob"))
        #expect(try await batch.count() == 101)
        #expect(try await fixture.storedCount() == 2)
        let storedNames = try await fixture.db.read { conn in
            try conn.fetchAll(String.self, #"SELECT "body" FROM "persistance_documents" ORDER BY rowid"#)
        }
        #expect(storedNames.count == 2 && storedNames[0].contains("\"Ann\"") && storedNames[1].contains("\"Bob\""))
        #expect(try await batch.save())
        #expect(try await fixture.storedCount() == 101)
        let all = try await fixture.users.queryAll()
        #expect(all.first?["name"] == "Ann 2" && all.first?["Id"] == ann["Id"])
        #expect(all.dropFirst().map { $0["data"] } == (0..<100).map { JSONValue.int(Int64($0)) })
    }

    @Test("removeAll while caching removes the stored documents on save, and later adds survive")
    func removeAllThenAdd() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: [["name": "Ann"], ["name": "Bob"]])
        let batch = fixture.users.beginCaching()
        #expect(try await batch.removeAll() == 2)
        try await batch.add(["name": "Cid"])
        #expect(try await fixture.storedCount() == 2)
        try await batch.save()
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Cid"])
    }

    @Test("discard drops every unsaved change; the handle goes on caching from the stored documents")
    func discard() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(["name": "Ann"])
        let batch = fixture.users.beginCaching()
        try await batch.add(["name": "Bob"])
        _ = try await batch.removeAll()
        batch.discard()
        #expect(batch.isCaching && !batch.hasUnsavedChanges)
        #expect(DocumentFixture.names(try await batch.queryAll()) == ["Ann"])
        try await batch.add(["name": "Cid"])
        #expect(try await fixture.storedCount() == 1)
        #expect(try await batch.save())
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann", "Cid"])
    }

    @Test("a save that fails writes nothing and keeps the changes for another try")
    func failedSaveWritesNothing() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(["name": "Ann"])
        let batch = fixture.users.beginCaching()
        try await batch.add(["name": "Bob"])
        try await batch.add(["name": "Cid"])
        // Make the second insert of the save fail, after the first has run.
        try await fixture.db.write { conn in
            try conn.execute("""
                CREATE TRIGGER refuse_cid BEFORE INSERT ON persistance_documents
                WHEN NEW.body LIKE '%"Cid"%' BEGIN SELECT RAISE(ABORT, 'no Cid'); END
                """)
        }
        await #expect(throws: DatabaseError.self) { try await batch.save() }
        #expect(try await fixture.storedCount() == 1)
        #expect(batch.isCaching && batch.hasUnsavedChanges)
        try await batch.add(["name": "Dan"])
        #expect(try await batch.count() == 4)
        try await fixture.db.write { conn in try conn.execute("DROP TRIGGER refuse_cid") }
        #expect(try await batch.save())
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann", "Bob", "Cid", "Dan"])
    }
}
