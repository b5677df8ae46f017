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
        try await fixture.users.beginCaching()
        #expect(fixture.users.isCaching)
        for index in 0..<100 {
            try await fixture.users.createOrUpdate(["data": .int(Int64(index))], where: nil)
        }
        #expect(try await fixture.users.update(["name": "Ann 2"], where: DocumentField("name") == "Ann"))
        #expect(try await fixture.users.remove(where: DocumentField("name") == "Bob"))
        #expect(try await fixture.users.count() == 101)
        #expect(try await fixture.storedCount() == 2)
        let storedNames = try await fixture.db.read { conn in
            try conn.fetchAll(String.self, #"SELECT "body" FROM "persistance_documents" ORDER BY rowid"#)
        }
        #expect(storedNames.count == 2 && storedNames[0].contains("\"Ann\"") && storedNames[1].contains("\"Bob\""))
        try await fixture.users.save()
        #expect(!fixture.users.isCaching)
        #expect(try await fixture.storedCount() == 101)
        let all = try await fixture.users.queryAll()
        #expect(all.first?["name"] == "Ann 2" && all.first?["Id"] == ann["Id"])
        #expect(all.dropFirst().map { $0["data"] } == (0..<100).map { JSONValue.int(Int64($0)) })
    }

    @Test("removeAll while caching removes the stored documents on save, and later adds survive")
    func removeAllThenAdd() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: [["name": "Ann"], ["name": "Bob"]])
        try await fixture.users.beginCaching()
        #expect(try await fixture.users.removeAll() == 2)
        try await fixture.users.add(["name": "Cid"])
        #expect(try await fixture.storedCount() == 2)
        try await fixture.users.save()
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Cid"])
    }

    @Test("discard drops every cached change")
    func discard() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(["name": "Ann"])
        try await fixture.users.beginCaching()
        try await fixture.users.add(["name": "Bob"])
        _ = try await fixture.users.removeAll()
        fixture.users.discard()
        #expect(!fixture.users.isCaching)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann"])
    }

    @Test("a save that fails writes nothing and keeps the cache for another try")
    func failedSaveWritesNothing() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(["name": "Ann"])
        try await fixture.users.beginCaching()
        try await fixture.users.add(["name": "Bob"])
        try await fixture.users.add(["name": "Cid"])
        // Make the second insert of the save fail, after the first has run.
        try await fixture.db.write { conn in
            try conn.execute("""
                CREATE TRIGGER refuse_cid BEFORE INSERT ON persistance_documents
                WHEN NEW.body LIKE '%"Cid"%' BEGIN SELECT RAISE(ABORT, 'no Cid'); END
                """)
        }
        await #expect(throws: DatabaseError.self) { try await fixture.users.save() }
        #expect(try await fixture.storedCount() == 1)
        #expect(fixture.users.isCaching)
        #expect(try await fixture.users.count() == 3)
        try await fixture.db.write { conn in try conn.execute("DROP TRIGGER refuse_cid") }
        try await fixture.users.save()
        #expect(try await fixture.storedCount() == 3)
    }
}
