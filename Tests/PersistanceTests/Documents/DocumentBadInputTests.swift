import Foundation
import Testing

@testable import Persistance

@Suite("Document bad input")
struct DocumentBadInputTests {
    @Test("values that are not JSON-compatible are typed errors, and nothing is written")
    func notJSONCompatible() async throws {
        let fixture = try await DocumentFixture()
        let objectError = #expect(throws: DatabaseError.self) {
            try JSONValue(foundationValue: ["name": "Ann", "born": NSObject()] as [String: Any])
        }
        #expect(objectError?.kind == .notJSONCompatible && objectError?.message.contains("born") == true)
        let keysError = #expect(throws: DatabaseError.self) { try JSONValue(foundationValue: [1: "integer keys"] as [Int: String]) }
        #expect(keysError?.kind == .notJSONCompatible)
        let nanError = #expect(throws: DatabaseError.self) { try JSONValue(foundationValue: ["x": Double.nan] as [String: Any]) }
        #expect(nanError?.kind == .notJSONCompatible)
        let converted = try JSONValue(foundationValue: ["a": [1, 2.5, "s", NSNull(), true], "b": ["c": "d"]] as [String: Any])
        #expect(converted == ["a": [1, 2.5, "s", nil, true], "b": ["c": "d"]])
        let nan = await #expect(throws: DatabaseError.self) { try await fixture.users.add(["deep": ["x": [.double(.nan)]]]) }
        #expect(nan?.kind == .notJSONCompatible)
        struct NotAnObject: Encodable { func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(3) } }
        let scalar = await #expect(throws: DatabaseError.self) { try await fixture.users.add(NotAnObject()) }
        #expect(scalar?.kind == .invalidDocument)
        #expect(try await fixture.storedCount() == 0)
    }

    @Test("update and remove of a document without an Id are typed errors")
    func documentWithoutID() async throws {
        let fixture = try await DocumentFixture()
        try await fixture.users.add(["name": "Ann"])
        let update = await #expect(throws: DatabaseError.self) { try await fixture.users.update(["name": "Bob"]) }
        #expect(update?.kind == .missingDocumentID)
        let remove = await #expect(throws: DatabaseError.self) { try await fixture.users.remove(["Id": 42]) }
        #expect(remove?.kind == .missingDocumentID)
        #expect(DocumentFixture.names(try await fixture.users.queryAll()) == ["Ann"])
    }

    @Test("keys with dots, quotes, backslashes, control characters and NUL are stored and found")
    func awkwardKeys() async throws {
        let fixture = try await DocumentFixture()
        let keys = ["a.b", "quote\"d", "it's", "back\\slash", "nul\u{0}inside", "new\nline", "emoji 🎉", ""]
        var document: Document = [:]
        for (index, key) in keys.enumerated() { document[key] = .int(Int64(index)) }
        document["nested"] = ["x.y": ["z\u{0}": "deep \u{0} value \u{1F}"]]
        let stored = try await fixture.users.add(document)
        #expect(try await fixture.users.queryAll() == [stored])
        for (index, key) in keys.enumerated() where !key.isEmpty {
            let found = try await fixture.users.count(where: DocumentField(DocumentPath(components: [key])) == .int(Int64(index)))
            #expect(found == 1, "key \(key.debugDescription)")
        }
        let deep = DocumentField(DocumentPath(components: ["nested", "x.y", "z\u{0}"])) == "deep \u{0} value \u{1F}"
        #expect(try await fixture.users.count(where: deep) == 1)
        // A dotted path is split at the dots, so it does not reach the key "a.b".
        #expect(try await fixture.users.count(where: DocumentField("a.b") == 0) == 0)
    }

    @Test("a 50 MB document is stored and read back whole")
    func fiftyMegabyteDocument() async throws {
        let fixture = try await DocumentFixture()
        let big = String(repeating: "0123456789abcdef\"\\", count: 50 * 1024 * 1024 / 18)
        let stored = try await fixture.users.add(["name": "big", "payload": .string(big), "list": .array((0..<1000).map { .int($0) })])
        let found = try await fixture.users.query(where: DocumentField("name") == "big")
        #expect(found.count == 1)
        #expect(found.first?["payload"]?.stringValue?.utf8.count == big.utf8.count)
        #expect(found.first == stored)
    }

    @Test("malformed JSON is a typed error, never a crash")
    func malformedJSON() throws {
        for text in ["", "{", "{\"a\":}", "[1,]", "\"unterminated", "tru", "01x", "{\"a\":1}}", "\"\\ud800\"", "1e999"] {
            let error = #expect(throws: DatabaseError.self) { try JSONParser.parse(text) }
            #expect(error?.kind == .invalidDocument, "\(text.prefix(20))")
        }
        let deep = #expect(throws: DatabaseError.self) { try JSONParser.parse(String(repeating: "[", count: 10_000)) }
        #expect(deep?.kind == .documentTooDeep)
        #expect(try JSONParser.parse(#" {"a" : [1, -2.5e3, "\u00e9\ud83c\udf89", null, false]} "#)
            == ["a": [1, -2500.0, "é🎉", nil, false]])
    }

    @Test("each kind of bad input has a named error kind a caller can catch")
    func namedErrorKinds() async throws {
        let fixture = try await DocumentFixture()
        var nested: JSONValue = 1
        for _ in 0..<DocumentCollection.maximumDepth { nested = .array([nested]) }
        let deep = nested
        let attempts: [(DatabaseError.Kind, @Sendable () async throws -> Void)] = [
            (.missingDocumentID, { try await fixture.users.update(["name": "no Id"]) }),
            (.missingDocumentID, { try await fixture.users.remove(["Id": .int(1)]) }),
            (.documentTooDeep, { try await fixture.users.add(["deep": deep]) }),
            (.notJSONCompatible, { try await fixture.users.add(["x": .double(.infinity)]) }),
            (.notJSONCompatible, { _ = try JSONValue(foundationValue: [URL(fileURLWithPath: "/")]) }),
        ]
        for (kind, attempt) in attempts {
            do {
                try await attempt()
                Issue.record("no error for \(kind)")
            } catch let error as DatabaseError where error.kind == kind {
                // The kind the caller catches.
            } catch {
                Issue.record("\(kind): got \(error)")
            }
        }
        #expect(try await fixture.storedCount() == 0)
    }
}
