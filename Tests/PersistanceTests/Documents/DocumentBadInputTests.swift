import Foundation
import Testing

@testable import Persistance

@Suite("Document bad input")
struct DocumentBadInputTests {
    @Test("values that are not JSON-compatible are typed errors, and nothing is written")
    func notJSONCompatible() async throws {
        let fixture = try await DocumentFixture()
        let dateError = #expect(throws: DatabaseError.self) {
            try JSONValue(foundationValue: ["name": "Ann", "born": Date()] as [String: Any])
        }
        #expect(dateError?.kind == .invalidDocument && dateError?.message.contains("born") == true)
        #expect(throws: DatabaseError.self) { try JSONValue(foundationValue: [1: "integer keys"] as [Int: String]) }
        #expect(throws: DatabaseError.self) { try JSONValue(foundationValue: ["x": Double.nan] as [String: Any]) }
        let converted = try JSONValue(foundationValue: ["a": [1, 2.5, "s", NSNull(), true], "b": ["c": "d"]] as [String: Any])
        #expect(converted == ["a": [1, 2.5, "s", nil, true], "b": ["c": "d"]])
        let nan = await #expect(throws: DatabaseError.self) { try await fixture.users.add(["deep": ["x": [.double(.nan)]]]) }
        #expect(nan?.kind == .invalidDocument)
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
        #expect(update?.kind == .invalidDocument)
        let remove = await #expect(throws: DatabaseError.self) { try await fixture.users.remove(["Id": 42]) }
        #expect(remove?.kind == .invalidDocument)
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
        for text in ["", "{", "{\"a\":}", "[1,]", "\"unterminated", "tru", "01x", "{\"a\":1}}", "\"\\ud800\"", "1e999",
                     String(repeating: "[", count: 10_000)] {
            let error = #expect(throws: DatabaseError.self) { try JSONParser.parse(text) }
            #expect(error?.kind == .invalidDocument, "\(text.prefix(20))")
        }
        #expect(try JSONParser.parse(#" {"a" : [1, -2.5e3, "\u00e9\ud83c\udf89", null, false]} "#)
            == ["a": [1, -2500.0, "é🎉", nil, false]])
    }
}
