import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Table("name", indexes: […])` on a struct: generates its `TableRecord` conformance from
/// the stored properties alone — by-index decoding, typed encoding, `didInsert` for an
/// integer primary key, the `Table` declaration and the typed `columns`.
public struct TableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structDecl = declaration.as(StructDeclSyntax.self) else {
            diagnoseNotAStruct(declaration, in: context)
            return []
        }
        if let generics = structDecl.genericParameterClause {
            context.diagnose(.init(node: generics, message: TableMacroDiagnostic.genericStruct))
            return []
        }
        guard let arguments = TableArguments(node, typeName: structDecl.name.text, in: context),
            var properties = RecordProperty.properties(
                of: structDecl, snakeCaseColumns: arguments.snakeCaseColumns, in: context),
            resolvePrimaryKey(&properties, in: context),
            checkColumnNames(properties, in: context),
            checkIndexes(arguments.indexes, properties, in: context)
        else {
            return []
        }
        let record = GeneratedRecord(
            typeName: type.trimmedDescription, access: accessModifier(of: structDecl), table: arguments,
            properties: properties, hasMemberwiseInitializer: MemberwiseInitializer.isAvailable(in: structDecl))
        let conformance = protocols.isEmpty ? "" : ": Persistance.TableRecord"
        let decl: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
            \(raw: record.members)
            }
            """
        return [decl.cast(ExtensionDeclSyntax.self)]
    }

    private static func diagnoseNotAStruct(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        var fixIts = [FixIt]()
        let keyword = declaration.as(ClassDeclSyntax.self)?.classKeyword ?? declaration.as(ActorDeclSyntax.self)?.actorKeyword
        if let keyword {
            fixIts.append(FixIt(
                message: TableMacroFixIt(message: "Make it a struct"),
                changes: [.replace(oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.struct))))]))
        }
        context.diagnose(.init(node: keyword.map(Syntax.init) ?? Syntax(declaration), message: TableMacroDiagnostic.notAStruct, fixIts: fixIts))
    }

    /// Checks the declared primary key (one at most; autoincrement only on an integer) and
    /// makes a property called `id` the key when none is declared.
    private static func resolvePrimaryKey(_ properties: inout [RecordProperty], in context: some MacroExpansionContext) -> Bool {
        var isValid = true
        var keyIndex: Int?
        for (index, property) in properties.enumerated() where property.primaryKey != nil {
            if keyIndex != nil {
                context.diagnose(.init(
                    node: property.primaryKeyExpression.map(Syntax.init) ?? property.node,
                    message: TableMacroDiagnostic.twoPrimaryKeys))
                isValid = false
            }
            keyIndex = keyIndex ?? index
            if property.primaryKey == ".autoincrement", !property.isInteger, let expression = property.primaryKeyExpression {
                let fixIt = FixIt(
                    message: TableMacroFixIt(message: "Use a plain primary key"),
                    changes: [.replace(oldNode: Syntax(expression), newNode: Syntax(ExprSyntax(".plain").with(\.leadingTrivia, expression.leadingTrivia)))])
                context.diagnose(.init(node: expression, message: TableMacroDiagnostic.autoincrementNotInteger, fixIts: [fixIt]))
                isValid = false
            }
        }
        if keyIndex == nil, let id = properties.firstIndex(where: { $0.column == "id" }) {
            properties[id].primaryKey = ".plain"
        }
        return isValid
    }

    private static func checkColumnNames(_ properties: [RecordProperty], in context: some MacroExpansionContext) -> Bool {
        var seen = Set<String>()
        var isValid = true
        for property in properties where !seen.insert(property.column.lowercased()).inserted {
            context.diagnose(.init(node: property.node, message: TableMacroDiagnostic.duplicateColumn))
            isValid = false
        }
        return isValid
    }

    /// Checks the columns of the literal indexes against the stored columns.
    private static func checkIndexes(
        _ indexes: ExprSyntax?, _ properties: [RecordProperty], in context: some MacroExpansionContext
    ) -> Bool {
        guard let array = indexes?.as(ArrayExprSyntax.self) else { return true }
        let columns = Set(properties.map { $0.column.lowercased() })
        var isValid = true
        for element in array.elements {
            guard let call = element.expression.as(FunctionCallExprSyntax.self),
                let on = call.arguments.first(where: { $0.label?.text == "on" })?.expression.as(ArrayExprSyntax.self)
            else { continue }
            for column in on.elements {
                guard let name = column.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue,
                    !columns.contains(name.lowercased())
                else { continue }
                context.diagnose(.init(node: column, message: TableMacroDiagnostic.unknownIndexColumn))
                isValid = false
            }
        }
        return isValid
    }

    /// `public ` or `package ` when the struct is, so that the conformance can be used where the struct can.
    private static func accessModifier(of declaration: StructDeclSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }
}

/// The arguments of `@Table(…)`: the table's name (the type's name by default) and its indexes.
struct TableArguments {
    var name: String
    var indexes: ExprSyntax?
    /// Whether `columnNaming: .snakeCase` names the columns of unnamed properties.
    var snakeCaseColumns = false

    init?(_ attribute: AttributeSyntax, typeName: String, in context: some MacroExpansionContext) {
        name = typeName
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            switch argument.label?.text {
            case nil:
                guard let literal = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue else {
                    context.diagnose(.init(node: argument.expression, message: TableMacroDiagnostic.tableNameNotLiteral))
                    return nil
                }
                name = literal
            case "indexes":
                indexes = argument.expression
            case "columnNaming":
                snakeCaseColumns = argument.expression.trimmedDescription.hasSuffix("snakeCase")
            default:
                break
            }
        }
    }
}
