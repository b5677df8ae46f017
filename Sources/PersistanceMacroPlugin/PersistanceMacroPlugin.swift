import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that expands every macro Persistance declares.
@main
struct PersistanceMacroPlugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [
        TableMacro.self,
        ColumnAttributeMacro.self,
        DAOInterfaceMacro.self,
    ]
}
