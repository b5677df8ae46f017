import Foundation
import Testing

@testable import Persistance

/// One nesting limit, `DocumentCollection.maximumDepth`, enforced when writing: deeper
/// documents are a typed error and write nothing, whatever their depth (no recursion on
/// the stack), so everything stored can be read back; a body written behind the library's
/// back fails only the reads that need it, with a typed error.
@Suite("Document nesting limit")
struct DocumentNestingTests {
    /// `value` wrapped in `levels` arrays, built without recursion.
    static func nested(_ levels: Int, around value: JSONValue = 1) -> JSONValue {
        var result = value
        for _ in 0..<levels { result = .array([result]) }
        return result
    }

    @Test("10,000 levels are a typed error at add, update and createOrUpdate, and write nothing")
    func tenThousandLevels() async throws {
        let fixture = try await DocumentFixture()
        let ann = try await fixture.users.add(["name": "Ann"])
        let deep = Self.nested(10_000)
        let attempts: [@Sendable () async throws -> Void] = [
            { try await fixture.users.add(["deep": deep]) },
            { try await fixture.users.add(contentsOf: [["name": "Bob"], ["deep": deep]]) },
            { try await fixture.users.update(["deep": deep], where: DocumentField("name") == "Ann") },
            { try await fixture.users.createOrUpdate(["deep": deep], where: nil) },
            { try await fixture.users.beginCaching().add(["deep": deep]) },
            { _ = try JSONValue(foundationValue: ["deep": deep]) },
            { _ = try await fixture.users.query(where: DocumentField("deep") == deep) },
        ]
        for (index, attempt) in attempts.enumerated() {
            do {
                try await attempt()
                Issue.record("attempt \(index) wrote a 10,000-level document")
            } catch let error as DatabaseError {
                #expect(error.kind == .documentTooDeep, "attempt \(index): \(error)")
            }
        }
        #expect(try await fixture.users.queryAll() == [ann])
    }

    @Test("a document exactly at the limit is stored and read back; one level more is refused")
    func theLimitIsTheReadersLimit() async throws {
        let fixture = try await DocumentFixture()
        // The document is at depth 1 and its member at 2, so 510 arrays put the 1 at 512.
        let deepest = Self.nested(DocumentCollection.maximumDepth - 2)
        let stored = try await fixture.users.add(["name": "deepest", "deep": deepest])
        #expect(try await fixture.users.queryAll() == [stored])
        #expect(try await fixture.users.count(where: DocumentField("deep") == deepest) == 1)
        let tooDeep = await #expect(throws: DatabaseError.self) {
            try await fixture.users.add(["deep": Self.nested(DocumentCollection.maximumDepth - 1)])
        }
        #expect(tooDeep?.kind == .documentTooDeep)
        // The same limit through Foundation values and Codable values.
        var foundation: Any = 1
        for _ in 0..<DocumentCollection.maximumDepth { foundation = [foundation] }
        let foundationValue = foundation
        let foundationError = #expect(throws: DatabaseError.self) { try JSONValue(foundationValue: ["deep": foundationValue]) }
        #expect(foundationError?.kind == .documentTooDeep)
        struct Wrapper: Encodable { let deep: JSONValue }
        let codable = await #expect(throws: DatabaseError.self) {
            try await fixture.users.add(Wrapper(deep: Self.nested(DocumentCollection.maximumDepth)))
        }
        // Foundation's JSONEncoder may refuse the nesting before the library sees it.
        #expect(codable?.kind == .documentTooDeep || codable?.kind == .notJSONCompatible)
        #expect(codable.map { $0.message.utf8.count < 1_000 } == true)  // no dump of the value
        #expect(try await fixture.storedCount() == 1)
        #expect(try await fixture.users.queryAll() == [stored])
    }

    @Test("a body written behind the library's back fails the reads that need it, with a typed error")
    func foreignBodies() async throws {
        let fixture = try await DocumentFixture()
        let stored = try await fixture.users.add(contentsOf: [["name": "Ann"], ["name": "Bob"], ["name": "Cid"]])
        let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        try await fixture.db.write { conn in
            try conn.execute(#"UPDATE "persistance_documents" SET "body" = '{"name": "Bob"' WHERE "id" = ?"#, [stored[1]["Id"]!.stringValue!])
            try conn.execute(#"UPDATE "persistance_documents" SET "body" = ? WHERE "id" = ?"#,
                             [#"{"name":"Cid","deep":"# + tooDeep + "}", stored[2]["Id"]!.stringValue!])
        }
        // Reads that do not need them work.
        #expect(try await fixture.users.query(where: DocumentField("Id") == stored[0]["Id"]!) == [stored[0]])
        #expect(try await fixture.users.update(["age": 30], where: DocumentField("Id") == stored[0]["Id"]!))
        // Reads that need them fail with a typed error naming the document.
        for (document, predicate) in [(stored[1], DocumentField("name") == "Ann"), (stored[2], DocumentField("name").beginsWith("A"))] {
            let id = try #require(document["Id"]?.stringValue)
            let byID = await #expect(throws: DatabaseError.self) { try await fixture.users.query(where: DocumentField("Id") == id) }
            #expect(byID?.kind == .invalidDocument && byID?.message.contains(id) == true)
            // SQLite may decide a filter without reading the body (it reads deeper JSON than
            // the library accepts); when the body must be read, the error is typed.
            do {
                #expect(try await fixture.users.count(where: predicate) == 1)
                #expect(SQLiteEngine.supportsJSON && document == stored[2])
            } catch let error as DatabaseError {
                // Either unreadable document may be met first.
                let named = stored.dropFirst().contains { error.message.contains($0["Id"]?.stringValue ?? "?") }
                #expect(error.kind == .invalidDocument && named)
            }
            let all = await #expect(throws: DatabaseError.self) { try await fixture.users.queryAll() }
            #expect(all?.kind == .invalidDocument)
            try await fixture.db.write { conn in
                try conn.execute(#"DELETE FROM "persistance_documents" WHERE "id" = ?"#, [id])
            }
        }
        #expect(try await fixture.users.count(where: DocumentField("age") == 30) == 1)
    }
}
