import Foundation
import Testing

@testable import Persistance

@Suite("Document collection")
struct DocumentCollectionTests {
    @Test("add gives a new UUID Id and an update stamp, replacing any given, and stores the document")
    func addStampsDocuments() async throws {
        let fixture = try await DocumentFixture()
        let before = Date().timeIntervalSince1970
        let stored = try await fixture.users.add(["name": "Ann", "Id": "mine", "update": 1])
        let id = try #require(stored["Id"]?.stringValue)
        #expect(UUID(uuidString: id)?.uuidString == id)  // a UUID, written as Foundation writes one
        let stamp = try #require(stored["update"]?.doubleValue)
        #expect(stamp >= before && stamp <= Date().timeIntervalSince1970)
        #expect(try await fixture.users.queryAll() == [stored])
    }

    @Test("add many is one transaction: all are stored with distinct ids, or none")
    func addMany() async throws {
        let fixture = try await DocumentFixture()
        let stored = try await fixture.users.add(contentsOf: [["name": "Ann"], ["name": "Bob"], ["name": "Cid"]])
        #expect(Set(stored.compactMap { $0["Id"]?.stringValue }).count == 3)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann", "Bob", "Cid"])
        await #expect(throws: DatabaseError.self) {
            try await fixture.users.add(contentsOf: [["name": "Dan"], ["bad": .double(.nan)]])
        }
        #expect(try await fixture.users.count() == 3)
    }

    @Test("update by Id merges and stamps; false when no such document")
    func updateByID() async throws {
        let fixture = try await DocumentFixture()
        var ann = try await fixture.users.add(["name": "Ann", "age": 30])
        ann["name"] = "Pan Ann"
        ann["city"] = "Taipei"
        #expect(try await fixture.users.update(ann))
        let stored = try await fixture.users.queryAll()
        #expect(stored.count == 1)
        #expect(stored[0]["name"] == "Pan Ann" && stored[0]["city"] == "Taipei" && stored[0]["age"] == 30)
        #expect(stored[0]["Id"] == ann["Id"])
        var ghost = ann
        ghost["Id"] = "no such id"
        #expect(try await fixture.users.update(ghost) == false)
        #expect(try await fixture.users.count() == 1)
    }

    @Test("update(values, where:) merges into every match, keeps each Id; false when none")
    func updateWhere() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(contentsOf: [["name": "Ann", "age": 30], ["name": "Bob", "age": 40], ["name": "Cid", "age": 50]])
        #expect(try await fixture.users.update(["senior": true, "Id": "ignored"], where: DocumentField("age") >= 40))
        let seniors = try await fixture.users.query(where: DocumentField("senior") == true)
        #expect(DocumentFixture.names(seniors) == ["Bob", "Cid"])
        #expect(Set(seniors.compactMap { $0["Id"]?.stringValue }).count == 2)
        #expect(try await fixture.users.update(["x": 1], where: DocumentField("age") > 100) == false)
    }

    @Test("createOrUpdate updates the matches, else inserts; a nil filter always inserts")
    func createOrUpdate() async throws {
        let fixture = try await DocumentFixture()
        let inserted = try await fixture.users.createOrUpdate(["name": "Ann", "n": 1], where: DocumentField("name") == "Ann")
        #expect(inserted.count == 1 && inserted[0]["n"] == 1)
        let updated = try await fixture.users.createOrUpdate(["n": 2], where: DocumentField("name") == "Ann")
        #expect(updated.count == 1 && updated[0]["Id"] == inserted[0]["Id"] && updated[0]["n"] == 2)
        try await fixture.users.createOrUpdate(["name": "Ann", "n": 3], where: nil)
        #expect(try await fixture.users.count(where: DocumentField("name") == "Ann") == 2)
    }

    @Test("remove by document, remove(where:) and removeAll report what they did")
    func removal() async throws {
        let fixture = try await DocumentFixture()
        let stored = try await fixture.users.add(contentsOf: [["name": "Ann"], ["name": "Bob"], ["name": "Cid"], ["name": "Dan"]])
        #expect(try await fixture.users.remove(stored[0]))
        #expect(try await fixture.users.remove(stored[0]) == false)
        #expect(try await fixture.users.remove(where: DocumentField("name").in(["Bob", "Cid"])))
        #expect(try await fixture.users.remove(where: DocumentField("name") == "Zed") == false)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Dan"])
        #expect(try await fixture.users.removeAll() == 1)
        #expect(try await fixture.users.removeAll() == 0)
        #expect(try await fixture.users.count() == 0)
    }

    @Test("collections of one file are separate")
    func collectionsAreSeparate() async throws {
        let fixture = try await DocumentFixture()
        let pets = try await fixture.db.collection("pets")
        try await fixture.users.add(["name": "Ann"])
        try await pets.add(["name": "Rex"])
        #expect(try await pets.removeAll() == 1)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann"])
    }

    @Test("Codable values are stored as objects and decoded back")
    func codableDocuments() async throws {
        struct Address: Codable, Equatable { var city: String }
        struct User: Codable, Equatable { var name: String; var age: Int; var address: Address }
        let fixture = try await DocumentFixture()
        try await fixture.users.add(User(name: "Ann", age: 30, address: Address(city: "Paris")))
        try await fixture.users.add(User(name: "Bob", age: 40, address: Address(city: "Rome")))
        let parisians = try await fixture.users.query(User.self, where: DocumentField("address.city") == "Paris")
        #expect(parisians == [User(name: "Ann", age: 30, address: Address(city: "Paris"))])
    }
}
