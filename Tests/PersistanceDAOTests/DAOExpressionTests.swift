import Foundation
import PersistanceDAO
import Testing

@Suite("DAO: the if/when expression language")
struct DAOExpressionTests {
    /// Whether `expression` holds for `arguments`, evaluated through a real module.
    func holds(_ expression: String, _ arguments: [String: DAOValue] = [:]) async throws -> Bool {
        let escaped = expression.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        let names = ["a", "b", "s", "list", "dict", "model"]
        let module = try DAOModule(xml: """
            <module><select id="e" arguments="\(names.joined(separator: ","))"><if true="\(escaped)">select 1</if></select></module>
            """)
        let directory = try DAOTemporaryDirectory()
        let dao = DAO(module: module, database: try await directory.database())
        let statements = try await dao.renderedStatements(for: "e", arguments)
        return !statements.isEmpty
    }

    @Test("arithmetic, precedence, unary signs and parentheses")
    func arithmetic() async throws {
        #expect(try await holds("1 + 2 * 3 == 7"))
        #expect(try await holds("(1 + 2) * 3 == 9"))
        #expect(try await holds("-a + +3 == 1", ["a": 2]))
        #expect(try await holds("7 \\ 2 == 3"))
        #expect(try await holds("7 / 2 == 3.5"))
        #expect(try await holds("8 / 2 == 4"))
        #expect(try await holds("7 % 4 == 3"))
        #expect(try await holds("2.5 * 2 == 5"))
        #expect(try await holds("10 - 2 - 3 == 5"))
        #expect(try await holds("s + 'b' == 'ab'", ["s": "a"]))
    }

    @Test("comparisons, nil, and/or/not/xor in any case")
    func logic() async throws {
        #expect(try await holds("a != nil and a >= 2 AND a <= 2", ["a": 2]))
        #expect(try await !holds("a != nil", [:]))
        #expect(try await holds("a == nil"))
        #expect(try await holds("not a", ["a": 0]))
        #expect(try await holds("NOT (a Or b)", ["a": 0]))
        #expect(try await holds("a xor b", ["a": 1]))
        #expect(try await !holds("a XOR b", ["a": 1, "b": 1]))
        #expect(try await holds("s == 'it\\'s'", ["s": "it's"]))
        #expect(try await holds("s < 'b'", ["s": "a"]))
        #expect(try await holds("1 or 1 / 0"))
    }

    @Test("property access into dictionaries, records and .count")
    func properties() async throws {
        let model = try MessageModel(msgId: 1, content: "x", uin: 5, read: true).daoValue()
        #expect(try await holds("model.read and model.uin > 4", ["model": model]))
        #expect(try await holds("list.count >= 2", ["list": [1, 2]]))
        #expect(try await holds("dict.name.count == 3 and dict.count == 1", ["dict": ["name": "Ann"]]))
        #expect(try await holds("dict.missing == nil", ["dict": [:]]))
        #expect(try await holds("model.author.name == nil"))
        #expect(try await holds("list.count == 0"))
    }

    @Test("type errors at evaluation are typed, never a crash")
    func typeErrors() async throws {
        let error = { (expression: String, arguments: [String: DAOValue]) async -> DAOError.Kind? in
            do {
                _ = try await self.holds(expression, arguments)
                return nil
            } catch {
                return (error as? DAOError)?.kind
            }
        }
        #expect(await error("1 / 0 == 1", [:]) == .expressionType)
        #expect(await error("s > 1", ["s": "a"]) == .expressionType)
        #expect(await error("a < nil", ["a": 1]) == nil)  // nil is Objective-C's: the comparison is false
        #expect(await error("-s", ["s": "a"]) == .expressionType)
        #expect(await error("9223372036854775807 + 1 == 0", [:]) == .expressionType)
        #expect(await error("model.nothing", ["model": try MessageModel(msgId: 1, uin: 5, read: true).daoValue()]) == .undefinedReference)
        #expect(await error("unknown == 1", [:]) == .undefinedReference)
        #expect(await error("a.b == 1", ["a": 1]) == .expressionType)
    }
}
