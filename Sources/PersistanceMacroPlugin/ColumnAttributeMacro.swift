import SwiftSyntax
import SwiftSyntaxMacros

/// `@Column(…)` and `@Transient`: markers that `@Table` reads on the struct's properties.
/// They generate nothing themselves; they only check they sit on a stored property.
public struct ColumnAttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.isStoredInstanceProperty else {
            context.diagnose(.init(node: node, message: TableMacroDiagnostic.attributeOnComputedProperty))
            return []
        }
        return []
    }
}

extension VariableDeclSyntax {
    /// Whether this declares stored instance properties (no getter; observers allowed).
    var isStoredInstanceProperty: Bool {
        if modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) {
            return false
        }
        return bindings.allSatisfy { binding in
            switch binding.accessorBlock?.accessors {
            case nil: true
            case .getter: false
            case .accessors(let accessors):
                accessors.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
            }
        }
    }

    /// The attribute named `name` (`Column`, `Transient`), if the declaration carries it.
    func attribute(named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            let typeName = attribute.attributeName.trimmedDescription
            if typeName == name || typeName.hasSuffix(".\(name)") { return attribute }
        }
        return nil
    }
}
