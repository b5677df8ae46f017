import Persistance

/// Runs a method of a module on a connection that is already in the call's transaction.
struct DAOMethodRunner {
    let context: DAOCallContext
    let connection: Connection

    /// Checks `arguments` against `method` and runs it (once per element for `foreach`;
    /// a `foreach` over nil, as over an empty list, runs nothing).
    /// - Throws: `invalidCall` for an argument the method does not declare; `nilArgument`
    ///   for nil in a `$` argument; `notACollection` when the `foreach` collection is not a
    ///   list; the first error of a statement that is not `resumable`. A ``DAOError`` names
    ///   the module and the method (and the method's position when it has none of its own).
    func run(_ method: DAOMethod, arguments: DAOArguments) throws -> DAOResult {
        do {
            return try runChecked(method, arguments: arguments)
        } catch let error as DAOError {
            throw error.within(module: context.module.name, method: method.id, at: method.location)
        }
    }

    private func runChecked(_ method: DAOMethod, arguments: DAOArguments) throws -> DAOResult {
        let arguments = try Self.checked(arguments, for: method)
        let scope = DAOScope(arguments: arguments, globals: context.globals)
        guard let (collection, item) = method.iteration else {
            return try runOnce(method, in: scope)
        }
        let elements = try Self.elements(of: arguments[collection] ?? .null, named: collection, at: method.location)
        var results = [DAOResult]()
        var writes = DAOWriteTally()
        for element in elements {
            let result = try runOnce(method, in: scope.binding(item, to: element))
            writes.add(result)
            results.append(result)
        }
        return method.kind == .select ? .each(results) : writes.result
    }

    /// The elements a `foreach` runs over: a list's, or none for nil (as Objective-C's
    /// messages to nil do nothing).
    /// - Throws: `notACollection` for any other value.
    static func elements(of value: DAOValue, named name: String, at location: DAOSourceLocation) throws -> [DAOValue] {
        switch value {
        case .list(let elements): return elements
        case .null: return []
        default: throw DAOError(.notACollection, "foreach over \(name), which is \(value.kindName), not a list", at: location)
        }
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
            return try run(statementAt: 0, of: method, in: scope) ?? noResult(of: method)
        }
        var result: DAOResult?
        var writes = DAOWriteTally()
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
            if let outcome, !writes.add(outcome) { result = outcome }
        }
        if method.kind == .select { return result ?? empty(method.result) }
        return writes.result
    }

    /// The result of a method whose statement rendered to nothing: its empty result for a
    /// select, no change otherwise.
    private func noResult(of method: DAOMethod) -> DAOResult {
        method.kind == .select ? empty(method.result) : .done(changes: 0)
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
        return try execute(try renderer.checkedSQL(), argumentCount: renderer.arguments.count, of: method) { statement in
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
            let changes = connection.changes
            // Read in the same write: the id of the row this statement inserted.
            guard changes > 0, DAOSQLText.isInsert(sql) else { return .done(changes: changes) }
            return .inserted(changes: changes, rowID: connection.lastInsertRowID)
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
