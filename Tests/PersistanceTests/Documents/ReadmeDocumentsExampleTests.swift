import Foundation
import Testing

import Persistance

/// The README's document collection example, verbatim between the markers, so it keeps
/// compiling (public API only: plain `import`).
@Suite(.timeLimit(.minutes(3))) struct ReadmeDocumentsExampleTests {
    @Test func readmeDocumentsExample() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("app.sqlite")))
        // README example begins
        let users = try await db.collection("users")
        let ann = try await users.add(["name": "Ann", "age": 31, "address": ["city": "Paris"], "tags": ["admin"]])
        try await users.add(contentsOf: [["name": "Bob", "age": 17], ["name": "Cid", "address": ["city": "Rome"]]])

        // Predicates: comparisons (with literals or variables), in, isNil, contains / beginsWith /
        // endsWith / like (NSPredicate's: * and ?), &&, ||, !, on nested paths; sorting on several fields.
        let adults = try await users.query(where: DocumentField("age") >= 18 || DocumentField("age").isNil,
                                           sort: [DocumentField("address.city").ascending, DocumentField("name").descending])
        let city = "Paris"
        let parisians = try await users.count(where: DocumentField("address.city") == city)

        var changed = ann
        changed["age"] = 32
        let found = try await users.update(changed)                                      // by Id; false when none
        try await users.update(["minor": true], where: DocumentField("age") < 18)          // merges into every match
        try await users.createOrUpdate(["name": "Dan"], where: DocumentField("name") == "Dan")  // inserts: no match
        try await users.remove(where: DocumentField("name").like("C*"))

        // The write-back cache is a handle owned by the code that began it.
        let batch = users.beginCaching()
        for i in 0..<1_000 {
            try await batch.createOrUpdate(["data": .int(Int64(i))], where: nil)
        }
        try await batch.save()      // one transaction; the handle goes on caching
        try batch.endCaching()      // an error while changes are unsaved: save() or discard() first
        let total = try await users.count()   // 1,003

        // Inside a transaction of yours, beside table writes: commits or rolls back with them.
        try await db.write { conn in
            try conn.execute("CREATE TABLE IF NOT EXISTS audit(what TEXT)")
            try conn.execute("INSERT INTO audit(what) VALUES ('Eve joined')")
            try users.on(conn).add(["name": "Eve"])
        }
        // README example ends
        #expect(adults.compactMap { $0["name"]?.stringValue } == ["Ann", "Cid"])
        #expect(parisians == 1)
        #expect(found)
        #expect(total == 1_003)
        #expect(try await users.count(where: DocumentField("name") == "Eve") == 1)
        let audited = try await db.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM audit") }
        #expect(audited == 1)
    }
}
