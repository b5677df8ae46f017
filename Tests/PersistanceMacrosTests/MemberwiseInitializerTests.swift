@testable import PersistanceMacroPlugin
import SwiftParser
import SwiftSyntax
import Testing

/// When `@Table`'s initializer may delegate to the struct's synthesized memberwise initializer.
@Suite struct MemberwiseInitializerTests {
    private func isAvailable(_ members: String) throws -> Bool {
        let file = Parser.parse(source: "struct Record {\n\(members)\n}")
        let declaration = try #require(file.statements.first?.item.as(StructDeclSyntax.self))
        return MemberwiseInitializer.isAvailable(in: declaration)
    }

    @Test func plainStoredPropertiesKeepIt() throws {
        #expect(try isAvailable("""
            @Column(primaryKey: .autoincrement) var id: Int64?
            public var name: String
            var score: Double = 0
            @Transient var isSelected = false
            var total: Double { score * 2 }
            static let shared = 1
            func rename() {}
            """))
    }

    @Test func anInitializerInTheStructRemovesIt() throws {
        #expect(try !isAvailable("var id: Int64\ninit(id: Int64) { self.id = id }"))
    }

    @Test func hiddenOrWrappedPropertiesRuleItOut() throws {
        #expect(try !isAvailable("private var id: Int64"))
        #expect(try !isAvailable("fileprivate var id: Int64"))
        #expect(try !isAvailable("var id: Int64\nlazy var name: String = \"\""))
        #expect(try !isAvailable("@Clamped var id: Int64"))
        #expect(try !isAvailable("var id: Int64\nlet kind = 1"))
        #expect(try !isAvailable("#if DEBUG\nvar id: Int64\n#endif"))
    }

    @Test func aConstantWithoutValueIsAParameter() throws {
        #expect(try isAvailable("let id: Int64\nvar name: String"))
    }
}
