import Persistance

/// A statement as a method call renders it: SQL text and the values bound to its `?`s.
public struct DAORenderedStatement: Sendable, Hashable {
    /// Why a call would run the statement.
    public enum Purpose: Sendable, Hashable, CustomStringConvertible {
        /// The module's initializer, run before the first call on a table (to create it).
        case initializer
        /// Dropping the table before creating it again (`resetOnUpgrade`, `upgradeMinVersion`).
        case reset
        /// A statement of the pending `<upgrade>` block to `version`.
        case upgrade(to: DAOVersion)
        /// A statement of the method called.
        case method
        /// The `<except>` of a `<try>`: runs only when the statement before it fails.
        case except

        public var description: String {
            switch self {
            case .initializer: "initializer"
            case .reset: "reset"
            case .upgrade(let version): "upgrade to \(version)"
            case .method: "method"
            case .except: "except"
            }
        }
    }

    /// The SQL text.
    public var sql: String
    /// The values bound to the parameters, in order (encrypted fields already encrypted).
    public var arguments: [DatabaseValue]
    /// Why the call would run it.
    public var purpose: Purpose

    /// A statement of `sql` bound to `arguments`.
    public init(sql: String, arguments: [DatabaseValue], purpose: Purpose = .method) {
        self.sql = sql
        self.arguments = arguments
        self.purpose = purpose
    }
}

extension DAO {
    /// Everything calling `id` with `arguments` would run now, without running it: first,
    /// when the DAO has not prepared its table yet, the initializer (or the reset, or the
    /// pending `<upgrade>` blocks, by the table's stored version); then one statement per
    /// statement of the method (per `step`, per `foreach` element), a `<try>`'s `<except>`
    /// right after its body. Statements that render to nothing (or `onVoid="quit"`) are left
    /// out. For logging and tests; `call` renders the same way.
    /// - Throws: as ``call(_:_:)`` would before running anything.
    public func renderedStatements(for id: String, _ arguments: [String: DAOValue] = [:]) async throws -> [DAORenderedStatement] {
        let method = try method(id)
        let (context, isPrepared, _) = try currentContext()
        var rendered = isPrepared ? [] : try await preparationStatements(context)
        let renderer = DAOMethodRenderer(context: context)
        do {
            rendered += try renderer.render(method, DAOMethodRunner.checked(DAOArguments(arguments), for: method), as: .method)
        } catch let error as DAOError {
            throw error.within(module: module.name, method: method.id, at: method.location)
        }
        return rendered
    }

    /// The statements preparing `context`'s table would run, by its stored version.
    private func preparationStatements(_ context: DAOCallContext) async throws -> [DAORenderedStatement] {
        let renderer = DAOMethodRenderer(context: context)
        let initializer = try module.initializer.flatMap { module.methods[$0] }.map {
            try renderer.render($0, DAOArguments([:]), as: .initializer)
        } ?? []
        guard let table = context.tableName, let version = module.version else { return initializer }
        let stored = try await database.read { try DAOTableVersions.version(of: table, in: $0) }
        guard let stored else { return initializer }
        guard stored < version else { return [] }
        if module.resets(from: stored) {
            return [DAORenderedStatement(sql: "DROP TABLE IF EXISTS \(table)", arguments: [], purpose: .reset)] + initializer
        }
        return try module.upgrades.filter { stored < $0.version }.flatMap { upgrade in
            try renderer.render(upgrade.method, DAOArguments([:]), as: .upgrade(to: upgrade.version))
        }
    }
}

/// Renders the statements of a method call without running them.
private struct DAOMethodRenderer {
    let context: DAOCallContext

    func render(
        _ method: DAOMethod, _ arguments: DAOArguments, as purpose: DAORenderedStatement.Purpose
    ) throws -> [DAORenderedStatement] {
        var scopes = [DAOScope(arguments: arguments, globals: context.globals)]
        if let (collection, item) = method.iteration {
            let elements = try DAOMethodRunner.elements(of: arguments[collection] ?? .null, named: collection, at: method.location)
            scopes = elements.map { scopes[0].binding(item, to: $0) }
        }
        var rendered = [DAORenderedStatement]()
        for scope in scopes {
            for statement in method.statements {
                if let index = statement.staticIndex, let sql = context.staticSQL[index] {
                    let parameters = context.module.staticStatements[index].parameters
                    let arguments = try parameters.map { try $0.value(in: scope, crypt: context.crypt) }
                    rendered.append(DAORenderedStatement(sql: sql, arguments: arguments, purpose: purpose))
                } else if let body = try render(statement.body, in: scope, as: purpose) {
                    rendered.append(body)
                }
                if let fallback = statement.fallback, let except = try render(fallback, in: scope, as: .except) {
                    rendered.append(except)
                }
            }
        }
        return rendered
    }

    private func render(
        _ pieces: [SQLTemplate], in scope: DAOScope, as purpose: DAORenderedStatement.Purpose
    ) throws -> DAORenderedStatement? {
        var renderer = context.renderer()
        try renderer.render(pieces, in: scope)
        guard renderer.hasStatement else { return nil }
        return DAORenderedStatement(sql: try renderer.checkedSQL(), arguments: renderer.arguments, purpose: purpose)
    }
}
