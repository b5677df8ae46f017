import SwiftSyntax

/// Whether a struct keeps the memberwise initializer the compiler synthesizes, with a
/// parameter for each record property, so that `@Table`'s initializer can delegate to it.
///
/// Delegating lets the compiler build the record in place: a large struct whose properties
/// are assigned one by one is copied once more on its way out of an inlined initializer.
/// Only the plain cases qualify: no initializer declared in the struct, no `#if` among its
/// members, and stored properties that are internal or wider, without property wrappers
/// or `lazy`, each a column or transient with a default (which the call then leaves out).
enum MemberwiseInitializer {
    static func isAvailable(in declaration: StructDeclSyntax) -> Bool {
        declaration.memberBlock.members.allSatisfy { member in
            if member.decl.is(InitializerDeclSyntax.self) || member.decl.is(IfConfigDeclSyntax.self) { return false }
            guard let variable = member.decl.as(VariableDeclSyntax.self), variable.isStoredInstanceProperty else {
                return true
            }
            return isPlain(variable)
        }
    }

    private static func isPlain(_ variable: VariableDeclSyntax) -> Bool {
        let hidden: [Keyword] = [.private, .fileprivate, .lazy]
        if variable.modifiers.contains(where: { modifier in hidden.contains { modifier.name.tokenKind == .keyword($0) } }) {
            return false
        }
        // No attribute but `@Column` and `@Transient` (a property wrapper changes the parameter).
        let known = ["Column", "Transient"].filter { variable.attribute(named: $0) != nil }.count
        guard known == variable.attributes.count else { return false }
        // A constant with a value is not a parameter of the memberwise initializer.
        let isConstant = variable.bindingSpecifier.tokenKind == .keyword(.let)
        return !(isConstant && variable.bindings.contains { $0.initializer != nil })
    }
}
