import PersistanceMacroPlugin
import SwiftSyntaxMacrosGenericTestSupport
import SwiftSyntaxMacroExpansion
import Testing

/// The macros under test, as the compiler sees them.
let tableMacros: [String: MacroSpec] = [
    "Table": MacroSpec(type: TableMacro.self, conformances: ["TableRecord"]),
    "Column": MacroSpec(type: ColumnAttributeMacro.self),
    "Transient": MacroSpec(type: ColumnAttributeMacro.self),
]

/// Expands `source` and checks the result, its diagnostics and the source after the fix-its.
func expectExpansion(
    _ source: String, expandedSource: String, diagnostics: [DiagnosticSpec] = [], fixedSource: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: tableMacros,
        applyFixIts: fixedSource == nil ? nil : diagnostics.flatMap { $0.fixIts.map(\.message) },
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        })
}
