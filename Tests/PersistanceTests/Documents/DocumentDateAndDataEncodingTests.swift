import Foundation
import Testing

@testable import Persistance

/// One encoding for dates and data, whichever way a document comes in: a `Date` is stored
/// as seconds since 1970 (the unit of the `update` stamp), `Data` as base64 text.
@Suite("Document dates and data")
struct DocumentDateAndDataEncodingTests {
    struct Event: Codable, Equatable {
        var name: String
        var at: Date
        var payload: Data
    }

    static let at = Date(timeIntervalSince1970: 1_484_126_444.5)
    static let payload = Data([0, 1, 2, 0xFE, 0xFF])

    @Test("the Codable route stores a Date as seconds since 1970 and Data as base64, and decodes them back")
    func codableRoute() async throws {
        let fixture = try await DocumentFixture()
        let event = Event(name: "launch", at: Self.at, payload: Self.payload)
        let stored = try await fixture.users.add(event)
        #expect(stored["at"] == .double(1_484_126_444.5))
        #expect(stored["payload"] == .string(Self.payload.base64EncodedString()))
        #expect(try await fixture.users.query(Event.self, where: nil) == [event])
        // Dates compare as the update stamp does: a variable Date is an operand.
        let earlier = Self.at.addingTimeInterval(-1)
        #expect(try await fixture.users.count(where: DocumentField("at") > earlier) == 1)
        #expect(try await fixture.users.count(where: DocumentField("payload") == Self.payload) == 1)
    }

    @Test("the Foundation route accepts Date and Data and stores them as the Codable route does")
    func foundationRoute() async throws {
        let fixture = try await DocumentFixture()
        let dictionary: [String: Any] = ["name": "launch", "at": Self.at, "payload": Self.payload, "list": [Self.at]]
        guard case .object(let document) = try JSONValue(foundationValue: dictionary) else {
            Issue.record("not an object")
            return
        }
        #expect(document["at"] == .double(1_484_126_444.5) && document["list"] == [.double(1_484_126_444.5)])
        #expect(document["payload"] == .string(Self.payload.base64EncodedString()))
        try await fixture.users.add(document)
        let viaCodable = try JSONValue.document(encoding: Event(name: "launch", at: Self.at, payload: Self.payload))
        #expect(viaCodable["at"] == document["at"] && viaCodable["payload"] == document["payload"])
        #expect(try await fixture.users.query(Event.self, where: nil) == [Event(name: "launch", at: Self.at, payload: Self.payload)])
    }
}
