import PersistanceMacroPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("DAO: the @DAOInterface macro's expansion")
struct DAOInterfaceMacroTests {
    let macros = ["DAOInterface": MacroSpec(type: DAOInterfaceMacro.self)]

    /// Reports a failed expansion check as a Swift Testing issue.
    func fail(_ failure: TestFailureSpec) {
        Issue.record(
            Comment(rawValue: failure.message),
            sourceLocation: SourceLocation(
                fileID: failure.location.fileID, filePath: failure.location.filePath,
                line: failure.location.line, column: failure.location.column))
    }

    @Test("a protocol becomes a struct that forwards to the DAO and converts results")
    func expansion() {
        assertMacroExpansion(
            """
            @DAOInterface
            public protocol Demo {
                func insertItem(content: String) async throws
                func getItem(index: Int64) async throws -> String?
                func all() async throws -> [Row]
            }
            """,
            expandedSource: """
                public protocol Demo {
                    func insertItem(content: String) async throws
                    func getItem(index: Int64) async throws -> String?
                    func all() async throws -> [Row]
                }

                public struct DemoDAO: Demo, DAOBacked {
                    public let dao: DAO

                    public init(dao: DAO) {
                        self.dao = dao
                    }

                    @inline(__always)
                    public func insertItem(content: String) async throws {
                        _ = try await dao.call("insertItem", arguments: ["content": try content.daoValue()])
                    }

                    @inline(__always)
                    public func getItem(index: Int64) async throws -> String? {
                        return try await dao.call("getItem", arguments: ["index": try index.daoValue()]).decode((String?).self)
                    }

                    @inline(__always)
                    public func all() async throws -> [Row] {
                        return try await dao.call("all", arguments: [:]).decode(([Row]).self)
                    }
                }
                """,
            macroSpecs: macros, failureHandler: fail)
    }

    @Test("what cannot be implemented is diagnosed")
    func diagnostics() {
        assertMacroExpansion(
            """
            @DAOInterface
            protocol Broken {
                var name: String { get }
                func sync() throws
            }
            """,
            expandedSource: """
                protocol Broken {
                    var name: String { get }
                    func sync() throws
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "a @DAOInterface protocol declares methods only, one per module method", line: 3, column: 5),
                DiagnosticSpec(message: "a @DAOInterface method must be 'async throws'", line: 4, column: 10),
            ],
            macroSpecs: macros, failureHandler: fail)
        assertMacroExpansion(
            "@DAOInterface struct NotAProtocol {}",
            expandedSource: "struct NotAProtocol {}",
            diagnostics: [DiagnosticSpec(message: "@DAOInterface applies to a protocol", line: 1, column: 1)],
            macroSpecs: macros, failureHandler: fail)
    }
}
