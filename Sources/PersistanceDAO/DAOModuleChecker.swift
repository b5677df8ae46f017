import Foundation

/// Turns the XML tree of a module into checked methods, maps, crypt rules and upgrades,
/// resolving `${…}` constants and fragments (and detecting cycles among them) up front.
struct DAOModuleChecker {
    /// What checking produces; `DAOModule` stores it.
    struct Checked {
        var name = ""
        var tableName: String?
        var version: DAOVersion?
        var initializer: String?
        var resetOnUpgrade = false
        var upgradeMinVersion: DAOVersion?
        var methodNames: [String] = []
        var encryptedFields: Set<DAOField> = []
        var methods: [String: DAOMethod] = [:]
        var maps: [String: DAOMap] = [:]
        var upgrades: [DAOUpgrade] = []
        /// The statements whose SQL depends on nothing but the table name.
        var staticStatements: [DAOStaticStatement] = []
        /// The names only global arguments can answer.
        var globalReferences = DAOGlobalReferences()
    }

    private let root: XMLElementNode
    private var constants: [String: String] = [:]
    private var fragmentElements: [String: XMLElementNode] = [:]
    /// Fragments already turned into pieces.
    private var fragments: [String: [SQLTemplate]] = [:]
    /// The fragments being resolved, outermost first: meeting one of them again is a cycle.
    private var resolving: [String] = []
    /// The static statements met so far, which ``DAOStatementTemplate/staticIndex`` indexes.
    private var staticStatements: [DAOStaticStatement] = []

    init(root: XMLElementNode) {
        self.root = root
    }

    private static let dynamicElements: Set<String> = ["if", "choose", "foreach", "where", "set", "trim"]

    mutating func check() throws -> Checked {
        guard root.name == "module" else {
            throw DAOError(.invalidModule, "the root element must be <module>, not <\(root.name)>", at: root.location)
        }
        try Self.allow(root, ["name", "initializer", "tableName", "version", "resetOnUpgrade", "upgradeMinVersion"])
        guard !root.hasText else {
            throw DAOError(.invalidModule, "<module> holds elements only, not text", at: root.location)
        }
        var checked = Checked()
        checked.name = root.attribute("name") ?? ""
        checked.tableName = try DAOTableName.checked(root.attribute("tableName").flatMap { $0.isEmpty ? nil : $0 }, at: root.location)
        checked.version = try root.attribute("version").map { try Self.version($0, in: root) }
        if let text = root.attribute("upgradeMinVersion"), !text.isEmpty {
            checked.upgradeMinVersion = try Self.version(text, in: root)
        }
        checked.resetOnUpgrade = try Self.flag(root, "resetOnUpgrade")
        checked.initializer = root.attribute("initializer").flatMap { $0.isEmpty ? nil : $0 }

        // Constants and fragments first: methods reference them wherever they are declared.
        for element in root.elements {
            switch element.name {
            case "const":
                guard !element.attributes.isEmpty, !element.hasText, element.elements.isEmpty else {
                    throw DAOError(.invalidModule, "<const> declares constants as attributes, name=\"value\"", at: element.location)
                }
                for (name, value) in element.attributes {
                    try declare(name, at: element)
                    constants[name] = value
                }
            case "sql":
                try Self.allow(element, ["id"])
                let id = try Self.required("id", of: element)
                try declare(id, at: element)
                fragmentElements[id] = element
            default:
                break
            }
        }

        for element in root.elements {
            switch element.name {
            case "const":
                break
            case "sql":
                _ = try fragment(element.attribute("id")!, at: element.location)
            case "select", "insert", "update", "delete":
                let method = try checkedMethod(element)
                guard checked.methods[method.id] == nil else {
                    throw DAOError(.invalidModule, "method \"\(method.id)\" is declared twice", at: element.location)
                }
                checked.methods[method.id] = method
                checked.methodNames.append(method.id)
                var defined = Set(method.arguments.map(\.name))
                if let (_, item) = method.iteration { defined.insert(item) }
                checked.globalReferences.collect(method.statements, arguments: defined)
            case "map":
                let map = try Self.checkedMap(element)
                guard checked.maps[map.id] == nil else {
                    throw DAOError(.invalidModule, "map \"\(map.id)\" is declared twice", at: element.location)
                }
                checked.maps[map.id] = map
            case "crypt":
                try Self.allow(element, ["class", "property"])
                checked.encryptedFields.insert(
                    DAOField(type: try Self.required("class", of: element), property: try Self.required("property", of: element)))
            case "upgrade":
                try Self.allow(element, ["toVersion"])
                let version = try Self.version(try Self.required("toVersion", of: element), in: element)
                guard checked.upgrades.last.map({ $0.version < version }) ?? true else {
                    throw DAOError(.invalidModule, "upgrade blocks must be in increasing version order", at: element.location)
                }
                if let moduleVersion = checked.version, moduleVersion < version {
                    throw DAOError(.invalidModule, "upgrade to \(version) is newer than the module's version \(moduleVersion)", at: element.location)
                }
                let upgrade = DAOUpgrade(version: version, statements: try statements(of: element, allowsTry: false), location: element.location)
                checked.upgrades.append(upgrade)
                checked.globalReferences.collect(upgrade.statements, arguments: [])
            default:
                throw DAOError(.invalidModule, "<\(element.name)> is not an element of <module>", at: element.location)
            }
        }
        try Self.checkReferences(checked, at: root.location)
        checked.staticStatements = staticStatements
        return checked
    }

    /// Results naming maps and the initializer must exist.
    private static func checkReferences(_ checked: Checked, at location: DAOSourceLocation) throws {
        if let initializer = checked.initializer {
            guard let method = checked.methods[initializer] else {
                throw DAOError(.undefinedReference, "the initializer \"\(initializer)\" is not a method of the module", at: location)
            }
            guard method.arguments.isEmpty, method.iteration == nil else {
                throw DAOError(.invalidModule, "the initializer \"\(initializer)\" cannot take arguments", at: method.location)
            }
        }
        for name in checked.methodNames {
            let method = checked.methods[name]!
            if case .shaped(.map(let map), _) = method.result, checked.maps[map] == nil {
                throw DAOError(.undefinedReference, "result \":\(map)\" names no <map> of the module", at: method.location)
            }
        }
    }

    private mutating func declare(_ name: String, at element: XMLElementNode) throws {
        guard DAOPath.isIdentifier(name), name != "T", name != "t" else {
            throw DAOError(.invalidModule, "\"\(name)\" cannot name a constant or fragment (T and t are the table name)", at: element.location)
        }
        guard constants[name] == nil, fragmentElements[name] == nil else {
            throw DAOError(.invalidModule, "\"\(name)\" is declared twice", at: element.location)
        }
    }

    // MARK: Methods

    private mutating func checkedMethod(_ element: XMLElementNode) throws -> DAOMethod {
        try Self.allow(element, ["id", "arguments", "result", "foreach"])
        let id = try Self.required("id", of: element)
        guard DAOPath.isIdentifier(id) else {
            throw DAOError(.invalidModule, "method id \"\(id)\" is not an identifier", at: element.location)
        }
        let kind = DAOMethod.Kind(rawValue: element.name)!
        var arguments = [DAOMethod.Argument]()
        for entry in (element.attribute("arguments") ?? "").split(separator: ",") {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            let refusesNil = trimmed.hasPrefix("$")
            let name = refusesNil ? String(trimmed.dropFirst()) : trimmed
            guard DAOPath.isIdentifier(name), !arguments.contains(where: { $0.name == name }) else {
                throw DAOError(.invalidModule, "argument \"\(trimmed)\" is not a new identifier", at: element.location)
            }
            arguments.append(DAOMethod.Argument(name: name, refusesNil: refusesNil))
        }
        var result = DAOResultKind.none
        if let text = element.attribute("result") {
            guard let parsed = DAOResultKind(parsing: text) else {
                throw DAOError(.invalidModule, "result \"\(text)\" is not a result type", at: element.location)
            }
            result = parsed
        }
        var iteration: (collection: String, item: String)?
        if let text = element.attribute("foreach") {
            let parts = text.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts.allSatisfy(DAOPath.isIdentifier) else {
                throw DAOError(.invalidModule, "foreach \"\(text)\" must read collection.item", at: element.location)
            }
            guard arguments.contains(where: { $0.name == parts[0] }) else {
                throw DAOError(.undefinedReference, "foreach collection \"\(parts[0])\" is not an argument", at: element.location)
            }
            guard !arguments.contains(where: { $0.name == parts[1] }) else {
                throw DAOError(.invalidModule, "foreach item \"\(parts[1])\" has the name of an argument", at: element.location)
            }
            iteration = (parts[0], parts[1])
        }
        return DAOMethod(
            id: id, kind: kind, arguments: arguments, result: result, iteration: iteration,
            statements: try statements(of: element, allowsTry: true), location: element.location)
    }

    /// A method's or upgrade's statements: its `step`s, or its whole body as one statement.
    private mutating func statements(of element: XMLElementNode, allowsTry: Bool) throws -> [DAOStatementTemplate] {
        let steps = element.elements.filter { $0.name == "step" }
        guard !steps.isEmpty else {
            return [try statement(element, allowsTry: allowsTry, resumable: false)]
        }
        guard steps.count == element.elements.count, !element.hasText else {
            throw DAOError(.invalidModule, "<\(element.name)> with <step>s can hold nothing but steps", at: element.location)
        }
        return try steps.map { step in
            try Self.allow(step, ["resumable"])
            return try statement(step, allowsTry: allowsTry, resumable: try Self.flag(step, "resumable"))
        }
    }

    private mutating func statement(_ element: XMLElementNode, allowsTry: Bool, resumable: Bool) throws -> DAOStatementTemplate {
        if let attempt = element.elements.first(where: { $0.name == "try" }) {
            guard allowsTry else {
                throw DAOError(.invalidModule, "<try> belongs in a method", at: attempt.location)
            }
            guard element.elements.count == 1, !element.hasText else {
                throw DAOError(.invalidModule, "<try> must be the whole statement, with nothing before or after it", at: attempt.location)
            }
            try Self.allow(attempt, [])
            guard let except = attempt.elements.last, except.name == "except",
                attempt.elements.filter({ $0.name == "except" }).count == 1
            else {
                throw DAOError(.invalidModule, "<try> must end with one <except>", at: attempt.location)
            }
            try Self.allow(except, [])
            var body = attempt
            body.children.removeAll { content in
                guard case .element(let child) = content else { return false }
                return child.name == "except"
            }
            let attempted = try pieces(of: body)
            return DAOStatementTemplate(
                body: attempted, fallback: try pieces(of: except), resumable: resumable, location: attempt.location,
                staticIndex: staticIndex(of: attempted))
        }
        let statement = try pieces(of: element)
        return DAOStatementTemplate(
            body: statement, fallback: nil, resumable: resumable, location: element.location, staticIndex: staticIndex(of: statement))
    }

    /// The index `pieces` get among the static statements, nil when they are not static.
    private mutating func staticIndex(of pieces: [SQLTemplate]) -> Int? {
        guard let statement = DAOStaticStatement(pieces) else { return nil }
        staticStatements.append(statement)
        return staticStatements.count - 1
    }

    // MARK: Dynamic SQL

    /// The template pieces of an element's content.
    private mutating func pieces(of element: XMLElementNode) throws -> [SQLTemplate] {
        var pieces = [SQLTemplate]()
        for child in element.children {
            switch child {
            case .text(let text, let location):
                pieces += try parser().parse(text, at: location)
            case .element(let child):
                pieces.append(try piece(child))
            }
        }
        return pieces
    }

    private mutating func piece(_ element: XMLElementNode) throws -> SQLTemplate {
        switch element.name {
        case "if":
            let (condition, expected) = try Self.condition(of: element)
            return .conditional(condition, expected: expected, try pieces(of: element), element.location)
        case "choose":
            try Self.allow(element, [])
            guard !element.hasText else {
                throw DAOError(.invalidModule, "<choose> holds <when> and <otherwise> only", at: element.location)
            }
            var branches = [SQLTemplate.Branch]()
            var otherwise: [SQLTemplate]?
            for child in element.elements {
                switch child.name {
                case "when" where otherwise == nil:
                    let (condition, expected) = try Self.condition(of: child)
                    branches.append(SQLTemplate.Branch(
                        condition: condition, expected: expected, body: try pieces(of: child), location: child.location))
                case "otherwise" where otherwise == nil:
                    try Self.allow(child, [])
                    otherwise = try pieces(of: child)
                default:
                    throw DAOError(.invalidModule, "<choose> holds <when>s then at most one <otherwise>, not <\(child.name)> here", at: child.location)
                }
            }
            return .choose(branches, otherwise: otherwise ?? [])
        case "foreach":
            try Self.allow(element, ["item", "collection", "open", "separator", "close", "reverse"])
            let item = try Self.required("item", of: element)
            let collectionText = try Self.required("collection", of: element)
            guard DAOPath.isIdentifier(item), let collection = DAOPath(parsing: Substring(collectionText)) else {
                throw DAOError(.invalidModule, "<foreach> needs an identifier item and a collection path", at: element.location)
            }
            let loop = SQLTemplate.Loop(
                item: item, collection: collection, open: element.attribute("open") ?? "",
                separator: element.attribute("separator") ?? "", close: element.attribute("close") ?? "",
                reverse: try Self.flag(element, "reverse"))
            return .loop(loop, try pieces(of: element), element.location)
        case "where", "set", "trim":
            let trim: SQLTemplate.Trim
            switch element.name {
            case "where":
                try Self.allow(element, ["onVoid"])
                trim = SQLTemplate.Trim(prefix: "WHERE", prefixOverrides: ["AND", "OR"], suffix: "", suffixOverrides: [], onVoid: try Self.onVoid(element))
            case "set":
                try Self.allow(element, ["onVoid"])
                trim = SQLTemplate.Trim(prefix: "SET", prefixOverrides: [","], suffix: "", suffixOverrides: [","], onVoid: try Self.onVoid(element))
            default:
                try Self.allow(element, ["prefix", "prefixOverrides", "suffix", "suffixOverrides", "onVoid"])
                func list(_ name: String) -> [String] {
                    (element.attribute(name) ?? "").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                }
                trim = SQLTemplate.Trim(
                    prefix: element.attribute("prefix") ?? "", prefixOverrides: list("prefixOverrides"),
                    suffix: element.attribute("suffix") ?? "", suffixOverrides: list("suffixOverrides"),
                    onVoid: try Self.onVoid(element))
            }
            return .trim(trim, try pieces(of: element))
        case "step":
            throw DAOError(.invalidModule, "a <step> cannot be inside another element than a method or upgrade, nor mixed with text", at: element.location)
        case "try", "except":
            throw DAOError(.invalidModule, "<\(element.name)> must be the whole statement of a method", at: element.location)
        default:
            throw DAOError(.invalidModule, "<\(element.name)> is not an element of SQL", at: element.location)
        }
    }

    /// A text parser resolving `${…}` with a copy of the checker (with the fragments being
    /// resolved now); fragments it meets are resolved again at the top level, and cached there.
    private func parser() -> SQLTextParser {
        var checker = self
        return SQLTextParser { name, location in
            if let constant = checker.constants[name] { return [.text(constant)] }
            return try checker.fragment(name, at: location)
        }
    }

    /// The pieces of the fragment `name`, with its own references resolved.
    /// - Throws: `undefinedReference` for an unknown name; `fragmentCycle` when `name` is
    ///   already being resolved further up.
    private mutating func fragment(_ name: String, at location: DAOSourceLocation) throws -> [SQLTemplate] {
        if let resolved = fragments[name] { return resolved }
        guard let element = fragmentElements[name] else {
            throw DAOError(.undefinedReference, "${\(name)} names no constant or <sql> fragment", at: location)
        }
        guard !resolving.contains(name) else {
            throw DAOError(.fragmentCycle, "fragments reference each other in a cycle: \((resolving + [name]).joined(separator: " → "))", at: location)
        }
        resolving.append(name)
        defer { resolving.removeLast() }
        let resolved = try pieces(of: element)
        fragments[name] = resolved
        return resolved
    }

    // MARK: Attributes

    private static func allow(_ element: XMLElementNode, _ names: Set<String>) throws {
        if let unknown = element.attributes.first(where: { !names.contains($0.name) }) {
            throw DAOError(.invalidModule, "<\(element.name)> has no attribute \"\(unknown.name)\"", at: element.location)
        }
    }

    private static func required(_ name: String, of element: XMLElementNode) throws -> String {
        guard let value = element.attribute(name), !value.isEmpty else {
            throw DAOError(.invalidModule, "<\(element.name)> needs a \"\(name)\" attribute", at: element.location)
        }
        return value
    }

    private static func flag(_ element: XMLElementNode, _ name: String) throws -> Bool {
        guard let value = element.attribute(name) else { return false }
        switch value.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: throw DAOError(.invalidModule, "\(name)=\"\(value)\" must be true, false, yes or no", at: element.location)
        }
    }

    private static func version(_ text: String, in element: XMLElementNode) throws -> DAOVersion {
        guard let version = DAOVersion(text) else {
            throw DAOError(.invalidModule, "\"\(text)\" is not a version (write x.y)", at: element.location)
        }
        return version
    }

    private static func onVoid(_ element: XMLElementNode) throws -> SQLTemplate.VoidBehaviour {
        switch element.attribute("onVoid") {
        case nil: return .none
        case "ignoreAfter": return .ignoreAfter
        case "quit": return .quit
        case let other?: throw DAOError(.invalidModule, "onVoid=\"\(other)\" must be ignoreAfter or quit", at: element.location)
        }
    }

    private static func condition(of element: XMLElementNode) throws -> (DAOExpression, Bool) {
        try allow(element, ["true", "false"])
        switch (element.attribute("true"), element.attribute("false")) {
        case (let text?, nil): return (try DAOExpressionParser.parse(text, at: element.location), true)
        case (nil, let text?): return (try DAOExpressionParser.parse(text, at: element.location), false)
        default: throw DAOError(.invalidModule, "<\(element.name)> needs exactly one of true=\"…\" or false=\"…\"", at: element.location)
        }
    }

    private static func checkedMap(_ element: XMLElementNode) throws -> DAOMap {
        try allow(element, ["id", "result"])
        var map = DAOMap(
            id: try required("id", of: element), type: try required("result", of: element), propertyForColumn: [:])
        guard !element.hasText else {
            throw DAOError(.invalidModule, "<map> holds <result> elements only", at: element.location)
        }
        for child in element.elements {
            guard child.name == "result" else {
                throw DAOError(.invalidModule, "<map> holds <result> elements, not <\(child.name)>", at: child.location)
            }
            try allow(child, ["property", "column"])
            map.propertyForColumn[try required("column", of: child)] = try required("property", of: child)
        }
        return map
    }
}
