import Persistance

/// A statement as a method call renders it: SQL text and the values bound to its `?`s.
public struct DAORenderedStatement: Sendable, Hashable {
    /// The SQL text.
    public var sql: String
    /// The values bound to the parameters, in order (encrypted fields already encrypted).
    public var arguments: [DatabaseValue]
}

extension DAO {
    /// The statements calling `id` with `arguments` would run now, without running them:
    /// one per statement (per `step`, per `foreach` element); a `try` renders its body.
    /// Statements that render to nothing (or `onVoid="quit"`) are left out.
    /// For logging and tests; `call` renders the same way.
    public func renderedStatements(for id: String, _ arguments: [String: DAOValue] = [:]) throws -> [DAORenderedStatement] {
        let method = try method(id)
        let context = settingsContext()
        let arguments = try DAOMethodRunner.checked(DAOArguments(arguments), for: method)
        var scopes = [DAOScope(arguments: arguments, globals: context.globals)]
        if let (collection, item) = method.iteration {
            guard case .list(let elements) = arguments[collection] ?? .null else {
                throw DAOError(.notACollection, "foreach over \(collection), which is not a list", at: method.location)
            }
            scopes = elements.map { scopes[0].binding(item, to: $0) }
        }
        var rendered = [DAORenderedStatement]()
        for scope in scopes {
            for statement in method.statements {
                if let index = statement.staticIndex, let sql = context.staticSQL[index] {
                    let arguments = try module.staticStatements[index].parameters.map { try $0.value(in: scope, crypt: context.crypt) }
                    rendered.append(DAORenderedStatement(sql: sql, arguments: arguments))
                    continue
                }
                var renderer = context.renderer()
                try renderer.render(statement.body, in: scope)
                if renderer.hasStatement {
                    rendered.append(DAORenderedStatement(sql: renderer.sql, arguments: renderer.arguments))
                }
            }
        }
        return rendered
    }
}
