import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// One stored property of a `@Table` struct, as the macro reads it: its column, how its
/// type is stored, its default and its column attributes.
struct RecordProperty {
    /// How the generated code converts the property's type.
    enum Storage {
        /// A type with its own database conversion (numbers, `Bool`, `String`, `Data`, …): read by index.
        case convertible
        /// `Date`, stored with the record's date strategy.
        case date
        /// Any other `Codable` type: its raw value, or JSON text.
        case codable
        /// A custom `ColumnCoder` (`@Column(as:)`), given as a type expression.
        case coded(String)
    }

    /// The property's name as written (with backticks if any).
    let name: String
    let column: String
    /// The type as written.
    let type: String
    /// The type without its optional: `Int64` for `Int64?`.
    let baseType: String
    let isOptional: Bool
    let storage: Storage
    let defaultValue: ExprSyntax?
    /// A literal default, which is also the column's DEFAULT.
    let literalDefault: ExprSyntax?
    /// The `@Column(default:)` value, the column's DEFAULT (and the value a NULL reads
    /// when the property has no initial value).
    let columnDefault: ExprSyntax?
    /// The `@Column(defaultExpression:)` expression, as written.
    let defaultExpression: String?
    /// `.plain` or `.autoincrement` when the property is the primary key.
    var primaryKey: String?
    /// The `primaryKey:` argument as written, for diagnostics and fix-its.
    let primaryKeyExpression: ExprSyntax?
    let isUnique: Bool
    let isIndexed: Bool
    /// The foreign key, as `@Column(references:onDelete:onUpdate:)` wrote it.
    let foreignKey: ColumnArguments.Reference?
    /// Where diagnostics about the property point.
    let node: Syntax

    /// Whether the base type is an integer, so the primary key can be set from a new row id.
    var isInteger: Bool { Self.integerTypes.contains(baseType) }

    static let integerTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    ]
    static let convertibleTypes: Set<String> = integerTypes.union([
        "Bool", "Double", "Float", "String", "Data", "UUID", "URL", "Decimal", "[UInt8]",
    ])
}

extension RecordProperty {
    /// The stored properties of `declaration`, in order, or nil after diagnosing what cannot be stored.
    static func properties(
        of declaration: StructDeclSyntax, snakeCaseColumns: Bool = false, in context: some MacroExpansionContext
    ) -> [RecordProperty]? {
        var properties = [RecordProperty]()
        var isValid = true
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isStoredInstanceProperty else {
                continue
            }
            let isTransient = variable.attribute(named: "Transient") != nil
            for binding in variable.bindings {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if isTransient {
                    if binding.initializer == nil {
                        context.diagnose(.init(node: binding, message: TableMacroDiagnostic.transientWithoutDefault))
                        isValid = false
                    }
                    continue
                }
                switch read(variable, binding, identifier, snakeCaseColumns: snakeCaseColumns, in: context) {
                case .some(let property): properties.append(property)
                case nil: isValid = false
                }
            }
        }
        return isValid ? properties : nil
    }

    private static func read(
        _ variable: VariableDeclSyntax, _ binding: PatternBindingSyntax, _ identifier: IdentifierPatternSyntax,
        snakeCaseColumns: Bool, in context: some MacroExpansionContext
    ) -> RecordProperty? {
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) {
            context.diagnose(.init(node: variable, message: TableMacroDiagnostic.lazyProperty, fixIts: [markTransient(variable)]))
            return nil
        }
        if variable.bindingSpecifier.tokenKind == .keyword(.let), binding.initializer != nil {
            let fixIt = FixIt(
                message: TableMacroFixIt(message: "Make it 'var'"),
                changes: [.replace(
                    oldNode: Syntax(variable.bindingSpecifier),
                    newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))))])
            context.diagnose(.init(node: variable.bindingSpecifier, message: TableMacroDiagnostic.constantWithValue, fixIts: [fixIt]))
            return nil
        }
        guard let typeSyntax = binding.typeAnnotation?.type else {
            context.diagnose(.init(node: binding, message: TableMacroDiagnostic.missingTypeAnnotation))
            return nil
        }
        let (base, isOptional) = unwrapOptional(typeSyntax)
        let attribute = variable.attribute(named: "Column")
        let arguments = ColumnArguments(attribute)
        let storage: Storage
        if let coder = arguments.coder {
            storage = .coded(coder)
        } else if let classified = classify(base) {
            storage = classified
        } else {
            context.diagnose(.init(node: typeSyntax, message: TableMacroDiagnostic.unsupportedType, fixIts: [markTransient(variable)]))
            return nil
        }
        let initializer = binding.initializer?.value
        let name = identifier.identifier.text
        return RecordProperty(
            name: name, column: arguments.name ?? column(forProperty: name.filter { $0 != "`" }, snakeCase: snakeCaseColumns),
            type: typeSyntax.trimmedDescription, baseType: base.trimmedDescription, isOptional: isOptional,
            storage: storage, defaultValue: initializer.map { $0.trimmed },
            literalDefault: initializer.flatMap { isLiteral($0) ? $0.trimmed : nil },
            columnDefault: arguments.defaultValue, defaultExpression: arguments.defaultExpression,
            primaryKey: arguments.primaryKey, primaryKeyExpression: arguments.primaryKeyExpression,
            isUnique: arguments.isUnique, isIndexed: arguments.isIndexed, foreignKey: arguments.reference,
            node: Syntax(binding))
    }

    /// The column of a property without `@Column("name")`: its name, or in snake case
    /// (`createdAt` → `created_at`, `userID` → `user_id`, `urlString` → `url_string`).
    static func column(forProperty name: String, snakeCase: Bool) -> String {
        guard snakeCase else { return name }
        let characters = Array(name)
        var column = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0, characters[index - 1] != "_" {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // A word starts after a lowercase letter or digit, or at the last capital of an
                // acronym that a lowercase word follows (`HTMLPage` → `html_page`).
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    column += "_"
                }
            }
            column += character.lowercased()
        }
        return column
    }

    private static func markTransient(_ variable: VariableDeclSyntax) -> FixIt {
        let transient = AttributeSyntax(attributeName: TypeSyntax("Transient"), trailingTrivia: .space)
        let marked = variable.with(\.leadingTrivia, [])
            .with(\.attributes, [.attribute(transient)] + variable.attributes.with(\.leadingTrivia, []))
            .with(\.leadingTrivia, variable.leadingTrivia)
        return FixIt(message: TableMacroFixIt(message: "Mark it @Transient"), changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(marked))])
    }

    /// `T` and whether the type is `T?`, `T!` or `Optional<T>`.
    static func unwrapOptional(_ type: TypeSyntax) -> (TypeSyntax, Bool) {
        if let optional = type.as(OptionalTypeSyntax.self) { return (optional.wrappedType, true) }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return (optional.wrappedType, true) }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let argument = identifier.genericArgumentClause?.arguments.first, case .type(let wrapped) = argument.argument
        {
            return (wrapped, true)
        }
        return (type, false)
    }

    /// How a (non-optional) type is stored, or nil when no column can hold it.
    static func classify(_ type: TypeSyntax) -> Storage? {
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return classify(name: identifier.name.text, hasGenericArguments: identifier.genericArgumentClause != nil)
        }
        if let member = type.as(MemberTypeSyntax.self) {
            let module = member.baseType.trimmedDescription
            guard ["Swift", "Foundation"].contains(module) else { return .codable }
            return classify(name: member.name.text, hasGenericArguments: member.genericArgumentClause != nil)
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return array.element.trimmedDescription == "UInt8" ? .convertible : classify(array.element).map { _ in .codable }
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            guard classify(dictionary.key) != nil, classify(dictionary.value) != nil else { return nil }
            return .codable
        }
        if type.is(OptionalTypeSyntax.self) { return classify(unwrapOptional(type).0).map { _ in .codable } }
        return nil  // tuples, functions, metatypes, existentials, opaque types
    }

    private static func classify(name: String, hasGenericArguments: Bool) -> Storage? {
        if ["Any", "AnyObject", "Void", "Never"].contains(name) { return nil }
        if hasGenericArguments { return .codable }
        if name == "Date" { return .date }
        return convertibleTypes.contains(name) ? .convertible : .codable
    }

    /// Whether `expression` is a literal: a number (possibly negative), a string without
    /// interpolation, or a Boolean.
    static func isLiteral(_ expression: ExprSyntax) -> Bool {
        if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
            || expression.is(BooleanLiteralExprSyntax.self)
        {
            return true
        }
        if let string = expression.as(StringLiteralExprSyntax.self) {
            return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return prefix.expression.is(IntegerLiteralExprSyntax.self) || prefix.expression.is(FloatLiteralExprSyntax.self)
        }
        return false
    }
}

/// The arguments of a property's `@Column(…)` attribute.
struct ColumnArguments {
    var name: String?
    var coder: String?
    var primaryKey: String?
    var isUnique = false
    var isIndexed = false
    /// The `primaryKey:` argument, for diagnostics.
    var primaryKeyExpression: ExprSyntax?
    /// The referenced record type and the actions, when `references:` is given.
    var reference: Reference?
    /// The `default:` value, unless nil.
    var defaultValue: ExprSyntax?
    /// The `defaultExpression:` expression, unless nil.
    var defaultExpression: String?

    /// A foreign key as written: the referenced type and the `onDelete:`/`onUpdate:` actions.
    struct Reference {
        var type: String
        var onDelete: String?
        var onUpdate: String?
    }

    init(_ attribute: AttributeSyntax?) {
        guard case .argumentList(let arguments) = attribute?.arguments else { return }
        for argument in arguments {
            switch argument.label?.text {
            case nil: name = argument.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
            case "as": coder = argument.expression.trimmedDescription.replacingSuffix(".self")
            case "primaryKey":
                let text = argument.expression.trimmedDescription
                if text != "nil" {
                    primaryKey = text.hasPrefix(".") ? text : "." + (text.split(separator: ".").last.map(String.init) ?? text)
                    primaryKeyExpression = argument.expression
                }
            case "unique": isUnique = argument.expression.trimmedDescription == "true"
            case "indexed": isIndexed = argument.expression.trimmedDescription == "true"
            case "references":
                let type = argument.expression.trimmedDescription
                if type != "nil" { reference = Reference(type: type.replacingSuffix(".self")) }
            case "default":
                if !argument.expression.is(NilLiteralExprSyntax.self) { defaultValue = argument.expression.trimmed }
            case "defaultExpression":
                if !argument.expression.is(NilLiteralExprSyntax.self) {
                    defaultExpression = argument.expression.trimmedDescription
                }
            default: break
            }
        }
        for argument in arguments {
            switch argument.label?.text {
            case "onDelete": reference?.onDelete = argument.expression.trimmedDescription
            case "onUpdate": reference?.onUpdate = argument.expression.trimmedDescription
            default: break
            }
        }
    }
}

extension String {
    func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
