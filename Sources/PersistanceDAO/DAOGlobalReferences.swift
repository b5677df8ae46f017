/// The names a module's statements read that are neither an argument of their method nor the
/// item of a `foreach` around them: at call time only the DAO's global arguments can answer
/// them. Collected when the module loads, with where each is first read.
struct DAOGlobalReferences: Sendable {
    /// Each name, where the module first reads it, in the order met.
    private(set) var firstReads: [(name: String, location: DAOSourceLocation)] = []

    /// The names.
    var names: Set<String> { Set(firstReads.map(\.name)) }

    /// Adds the names `statements` read that `arguments` (and the `foreach` items around each
    /// read) do not define.
    mutating func collect(_ statements: [DAOStatementTemplate], arguments: Set<String>) {
        for statement in statements {
            collect(statement.body, defined: arguments)
            if let fallback = statement.fallback { collect(fallback, defined: arguments) }
        }
    }

    private mutating func collect(_ pieces: [SQLTemplate], defined: Set<String>) {
        for piece in pieces {
            switch piece {
            case .text, .tableName:
                break
            case .bound(let path, _, let location), .inlined(let path, _, _, let location):
                read(path.root, at: location, defined: defined)
            case .conditional(let condition, _, let body, let location):
                collect(condition, at: location, defined: defined)
                collect(body, defined: defined)
            case .choose(let branches, let otherwise):
                for branch in branches {
                    collect(branch.condition, at: branch.location, defined: defined)
                    collect(branch.body, defined: defined)
                }
                collect(otherwise, defined: defined)
            case .loop(let loop, let body, let location):
                read(loop.collection.root, at: location, defined: defined)
                collect(body, defined: defined.union([loop.item]))
            case .trim(_, let body):
                collect(body, defined: defined)
            }
        }
    }

    private mutating func collect(_ expression: DAOExpression, at location: DAOSourceLocation, defined: Set<String>) {
        switch expression {
        case .literal:
            break
        case .path(let path):
            read(path.root, at: location, defined: defined)
        case .unary(_, let operand):
            collect(operand, at: location, defined: defined)
        case .binary(_, let left, let right):
            collect(left, at: location, defined: defined)
            collect(right, at: location, defined: defined)
        }
    }

    private mutating func read(_ name: String, at location: DAOSourceLocation, defined: Set<String>) {
        guard !defined.contains(name), !firstReads.contains(where: { $0.name == name }) else { return }
        firstReads.append((name, location))
    }

    /// Checks that `declared` holds every name.
    /// - Throws: `undefinedReference` listing each name it lacks with where it is read, at the first.
    func check(declared: Set<String>) throws {
        let undeclared = firstReads.filter { !declared.contains($0.name) }
        guard let first = undeclared.first else { return }
        let list = undeclared.map { "\"\($0.name)\" (line \($0.location.line), column \($0.location.column))" }
        throw DAOError(
            .undefinedReference,
            "not an argument of its method, a foreach item nor a declared global argument: \(list.joined(separator: ", "))",
            at: first.location)
    }
}
