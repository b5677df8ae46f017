import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@DAOInterface` on a protocol whose methods mirror a DAO module's methods: generates
/// `<Protocol>DAO`, a struct that implements each method by calling the module method of the
/// same name with the parameters as arguments (by their names) and converting the result
/// to the declared return type.
public struct DAOInterfaceMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let protocolDeclaration = declaration.as(ProtocolDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: Syntax(node), message: DAOInterfaceDiagnostic.notAProtocol))
            return []
        }
        let access = protocolDeclaration.modifiers.contains { $0.name.tokenKind == .keyword(.public) } ? "public " : ""
        var members = [String]()
        var isValid = true
        for member in protocolDeclaration.memberBlock.members {
            guard let function = member.decl.as(FunctionDeclSyntax.self) else {
                context.diagnose(Diagnostic(node: Syntax(member.decl), message: DAOInterfaceDiagnostic.notAMethod))
                isValid = false
                continue
            }
            guard let implementation = implementation(of: function, access: access, in: context) else {
                isValid = false
                continue
            }
            members.append(implementation)
        }
        guard isValid else { return [] }
        let name = protocolDeclaration.name.text
        let body = members.map { "\n" + $0 }.joined(separator: "\n")
        return [
            """
            \(raw: access)struct \(raw: name)DAO: \(raw: name), DAOBacked {
                \(raw: access)let dao: DAO

                \(raw: access)init(dao: DAO) {
                    self.dao = dao
                }
            \(raw: body)
            }
            """
        ]
    }

    /// The implementation of one protocol method, or nil (with a diagnostic) when it cannot have one.
    private static func implementation(
        of function: FunctionDeclSyntax, access: String, in context: some MacroExpansionContext
    ) -> String? {
        let effects = function.signature.effectSpecifiers
        guard effects?.asyncSpecifier != nil, effects?.throwsClause != nil else {
            context.diagnose(Diagnostic(node: Syntax(function.name), message: DAOInterfaceDiagnostic.notAsyncThrows))
            return nil
        }
        guard function.genericParameterClause == nil else {
            context.diagnose(Diagnostic(node: Syntax(function.name), message: DAOInterfaceDiagnostic.generic))
            return nil
        }
        let arguments = function.signature.parameterClause.parameters.map { parameter in
            let name = (parameter.secondName ?? parameter.firstName).text
            return "\"\(name)\": try \(name).daoValue()"
        }
        let pairs = arguments.isEmpty ? "[:]" : "[" + arguments.joined(separator: ", ") + "]"
        let call = "try await dao.call(\"\(function.name.text)\", arguments: \(pairs))"
        var signature = function.signature.trimmed
        signature.leadingTrivia = []
        let body: String
        if let returnType = function.signature.returnClause?.type.trimmed {
            body = "return \(call).decode((\(returnType)).self)"
        } else {
            body = "_ = \(call)"
        }
        // Inlined where it is called: the method only forwards, and as a call of its own it
        // would cost an async frame and an executor check of its own.
        return """
                @inline(__always)
                \(access)func \(function.name.text)\(signature) {
                    \(body)
                }
            """
    }
}

/// What `@DAOInterface` reports.
enum DAOInterfaceDiagnostic: String, DiagnosticMessage {
    case notAProtocol
    case notAMethod
    case notAsyncThrows
    case generic

    var message: String {
        switch self {
        case .notAProtocol: "@DAOInterface applies to a protocol"
        case .notAMethod: "a @DAOInterface protocol declares methods only, one per module method"
        case .notAsyncThrows: "a @DAOInterface method must be 'async throws'"
        case .generic: "a @DAOInterface method cannot be generic"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "PersistanceDAO", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
