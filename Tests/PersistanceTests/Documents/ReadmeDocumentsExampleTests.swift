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

        // Predicates: comparisons, in, isNil, contains / beginsWith / endsWith / like, &&, ||, !,
        // on nested paths; sorting on several fields.
        let adults = try await users.query(where: DocumentField("age") >= 18 || DocumentField("age").isNil,
                                           sort: [DocumentField("address.city").ascending, DocumentField("name").descending])
        let parisians = try await users.count(where: DocumentField("address.city") == "Paris")

        var changed = ann
        changed["age"] = 32
        let found = try await users.update(changed)                                      // by Id; false when none
        try await users.update(["minor": true], where: DocumentField("age") < 18)          // merges into every match
        try await users.createOrUpdate(["name": "Dan"], where: DocumentField("name") == "Dan")  // inserts: no match
        try await users.remove(where: DocumentField("name").beginsWith("C"))

        // The write-back cache: changes stay in memory (reads see them) until one transaction saves them.
        try await users.beginCaching()
        for i in 0..<1_000 {
            try await users.createOrUpdate(["data": .int(Int64(i))], where: nil)
        }
        try await users.save()   // or users.discard()
        let total = try await users.count()   // 1,003
        // README example ends
        #expect(adults.compactMap { $0["name"]?.stringValue } == ["Ann", "Cid"])
        #expect(parisians == 1)
        #expect(found)
        #expect(total == 1_003)
    }
}
