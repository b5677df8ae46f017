import Foundation
import Testing

@testable import Persistance

/// Comparisons and `in` lists take variables of every supported type, not only literals.
@Suite("Document field comparisons with variables")
struct DocumentFieldVariableTests {
    @Test("variables of every supported type compare with a field")
    func variables() async throws {
        let fixture = try await DocumentFixture()
        let url = "https://example.com"
        let int = 41, int64: Int64 = 41, int32: Int32 = 41, int16: Int16 = 41, int8: Int8 = 41
        let uint8: UInt8 = 41, uint16: UInt16 = 41, uint32: UInt32 = 41
        let double = 2.5, float: Float = 2.5, flag = true, date = Date(timeIntervalSince1970: 100)
        let data = Data([1, 2, 3]), value: JSONValue = "x", optional: String? = nil, substring = url.prefix(5)
        try await fixture.users.add([
            "url": .string(url), "n": 41, "d": 2.5, "flag": true, "at": 100.0, "data": .string(data.base64EncodedString()),
            "v": "x", "prefix": "https",
        ])
        let predicates: [DocumentPredicate] = [
            DocumentField("url") == url, DocumentField("n") == int, DocumentField("n") == int64, DocumentField("n") == int32,
            DocumentField("n") == int16, DocumentField("n") == int8, DocumentField("n") == uint8, DocumentField("n") == uint16,
            DocumentField("n") == uint32, DocumentField("d") == double, DocumentField("d") == float, DocumentField("flag") == flag,
            DocumentField("at") == date, DocumentField("data") == data, DocumentField("v") == value,
            DocumentField("missing") == optional, DocumentField("prefix") == substring,
            DocumentField("n") != int + 1, DocumentField("n") < int + 1, DocumentField("n") <= int, DocumentField("n") > int - 1,
            DocumentField("n") >= int64, DocumentField("url").in([url, "other"]), DocumentField("n").in([int, 7]),
        ]
        for (index, predicate) in predicates.enumerated() {
            #expect(try await fixture.users.count(where: predicate) == 1, "predicate \(index): \(predicate)")
        }
    }
}
