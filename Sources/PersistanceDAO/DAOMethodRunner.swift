import Persistance

/// Runs a method of a module on a connection that is already in the call's transaction.
struct DAOMethodRunner {
    let context: DAOCallContext
    let connection: Connection

    /// Checks `arguments` against `method` and runs it (once per element for `foreach`).
    /// - Throws: `invalidCall` for an argument the method does not declare; `nilArgument`
    ///   for nil in a `$` argument; `notACollection` when the `foreach` collection is not a
    ///   list; the first error of a statement that is not `resumable`.
    func run(_ method: DAOMethod, arguments: DAOArguments) throws -> DAOResult {
        let arguments = try Self.checked(arguments, for: method)
        let scope = DAOScope(arguments: arguments, globals: context.globals)
        guard let (collection, item) = method.iteration else {
            return try runOnce(method, in: scope)
        }
        let value = arguments[collection] ?? .null
        guard case .list(let elements) = value else {
            throw DAOError(.notACollection, "foreach over \(collection), which is \(value.kindName), not a list", at: method.location)
        }
        var results = [DAOResult]()
        var changes = 0
        for element in elements {
            let result = try runOnce(method, in: scope.binding(item, to: element))
            if case .done(let count) = result { changes += count }
            results.append(result)
        }
        return method.kind == .select ? .each(results) : .done(changes: changes)
    }

    /// `arguments` with nil for every declared argument not passed. The usual call, passing
    /// exactly the declared arguments, is checked without hashing a name (each passed name is
    /// compared with the few declared ones) and returned as it is.
    /// - Throws: `invalidCall` for an argument the method does not declare, or one passed
    ///   twice; `nilArgument` for nil in a `$` argument.
    static func checked(_ passed: DAOArguments, for method: DAOMethod) throws -> DAOArguments {
        if passed.passEveryArgument(to: method) { return passed }
        let arguments = try passed.dictionary(for: method)
        var complete = arguments
        var declaredCount = 0
        var refusedNil: String?
        for argument in method.arguments {
            let value = arguments[argument.name]
            if value != nil { declaredCount += 1 } else { complete[argument.name] = .null }
            if argument.refusesNil, value?.isNull ?? true, refusedNil == nil { refusedNil = argument.name }
        }
        if declaredCount < arguments.count,
            let unknown = arguments.keys.sorted().first(where: { name in !method.arguments.contains { $0.name == name } })
        {
            throw DAOError(.invalidCall, "\(method.id) has no argument \"\(unknown)\"", at: method.location)
        }
        if let refusedNil {
            throw DAOError(.nilArgument, "\(method.id) refuses nil for $\(refusedNil)", at: method.location)
        }
        return DAOArguments(complete)
    }

    /// Runs the method's statements in order; the result is the last statement's that ran.
    func runOnce(_ method: DAOMethod, in scope: DAOScope) throws -> DAOResult {
        if method.statements.count == 1, !method.statements[0].resumable {
            // The usual method, one statement: its outcome is returned as it is, not copied.
            switch try run(statementAt: 0, of: method, in: scope) {
            case .done(let changes)?: return noResult(of: method, changes: changes)
            case let outcome?: return outcome
            case nil: return noResult(of: method, changes: 0)
            }
        }
        var result: DAOResult?
        var changes = 0
        for index in method.statements.indices {
            let outcome: DAOResult?
            if method.statements[index].resumable {
                do {
                    outcome = try connection.savepoint { try run(statementAt: index, of: method, in: scope) }
                } catch is DatabaseError {
                    continue
                }
            } else {
                outcome = try run(statementAt: index, of: method, in: scope)
            }
            if case .done(let count) = outcome {
                changes += count
            } else if let outcome {
                result = outcome
            }
        }
        return result ?? noResult(of: method, changes: changes)
    }

    /// The result of a method whose statements returned no rows: its empty result for a
    /// select, the number of rows changed otherwise.
    private func noResult(of method: DAOMethod, changes: Int) -> DAOResult {
        method.kind == .select ? empty(method.result) : .done(changes: changes)
    }

    /// Runs the method's statement at `index`; nil when it rendered to nothing (or
    /// `onVoid="quit"`). The statement is read in place rather than copied (a copy retains
    /// each of its parts).
    private func run(statementAt index: Int, of method: DAOMethod, in scope: DAOScope) throws -> DAOResult? {
        let staticIndex = method.statements[index].staticIndex
        guard let fallback = method.statements[index].fallback else {
            return try execute(method.statements[index].body, staticIndex: staticIndex, of: method, in: scope)
        }
        do {
            return try connection.savepoint {
                try execute(method.statements[index].body, staticIndex: staticIndex, of: method, in: scope)
            }
        } catch is DatabaseError {
            return try execute(fallback, staticIndex: nil, of: method, in: scope)
        }
    }

    /// Runs `pieces`: a static statement's SQL as the DAO rendered it for its table, its
    /// parameters bound from `scope`; any other statement rendered now (the pieces are
    /// only read then).
    private func execute(
        _ pieces: @autoclosure () -> [SQLTemplate], staticIndex: Int?, of method: DAOMethod, in scope: DAOScope
    ) throws -> DAOResult? {
        if let staticIndex, let sql = context.staticSQL[staticIndex] {
            let parameters = context.module.staticStatements[staticIndex].parameters
            return try execute(sql, argumentCount: parameters.count, of: method) { statement in
                var holdsCopies = false
                for (offset, parameter) in parameters.enumerated() {
                    let value = try parameter.value(in: scope, crypt: context.crypt)
                    holdsCopies = holdsCopies || Self.isCopied(value)
                    try statement.bind(value, at: offset + 1)
                }
                return holdsCopies
            }
        }
        var renderer = context.renderer()
        try renderer.render(pieces(), in: scope)
        guard renderer.hasStatement else { return nil }
        return try execute(renderer.sql, argumentCount: renderer.arguments.count, of: method) { statement in
            for (offset, value) in renderer.arguments.enumerated() {
                try statement.bind(value, at: offset + 1)
            }
            return renderer.arguments.contains(where: Self.isCopied)
        }
    }

    /// Runs `sql` from the statement cache, its `argumentCount` parameters bound by `bind`,
    /// and reads its result. `bind` says whether it bound a text or a blob: SQLite keeps a
    /// copy of each in the cached statement, so the bindings are then cleared after the
    /// call; numbers hold nothing and are simply bound anew by the next call.
    private func execute(
        _ sql: String, argumentCount: Int, of method: DAOMethod, bind: (Statement) throws -> Bool
    ) throws -> DAOResult {
        let statement = try connection.cachedStatement(sql)
        var clearsBindings = true
        defer {
            statement.reset()
            if clearsBindings { statement.clearBindings() }
        }
        guard argumentCount == statement.parameterCount else {
            throw DatabaseError(
                kind: .invalidArguments,
                message: "statement takes \(statement.parameterCount) argument(s), the module binds \(argumentCount)",
                sql: sql)
        }
        clearsBindings = try bind(statement)
        guard method.kind == .select || method.result != .none else {
            while try statement.step() {}
            return .done(changes: connection.changes)
        }
        return try DAOResultReader(context: context, statement: statement).read(method.result)
    }

    /// Whether SQLite keeps a copy of `value` once bound.
    private static func isCopied(_ value: DatabaseValue) -> Bool {
        switch value {
        case .text, .blob: true
        case .null, .integer, .real: false
        }
    }

    /// The result of a select that ran no statement.
    private func empty(_ kind: DAOResultKind) -> DAOResult {
        switch kind {
        case .none: .rows([])
        case .shaped(.scalar, false): .value(.null)
        case .shaped(.scalar, true): .values([])
        case .shaped(.row, false): .row(nil)
        case .shaped(.row, true): .rows([])
        case .shaped(_, false): .record(nil)
        case .shaped(_, true): .records([])
        }
    }
}
