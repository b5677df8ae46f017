extension JSONValue {
    /// Throws unless the value can be stored and read back: every number finite
    /// (`DatabaseError.Kind.notJSONCompatible`; not checked unless `requiringFinite`), and no value deeper than
    /// `DocumentCollection.maximumDepth`, counting the value itself at `depth`
    /// (`DatabaseError.Kind.documentTooDeep`). Walks the value with a work list, never
    /// recursing, so any depth is checked without growing the stack.
    func validate(depth: Int, at path: String, requiringFinite: Bool = true) throws {
        try Self.check(self, at: path, requiringFinite)
        var containers: [(value: JSONValue, depth: Int, path: String)] = [(self, depth, path)]
        while let (value, depth, path) = containers.popLast() {
            let children: [(String, JSONValue)]
            switch value {
            case .array(let elements): children = elements.enumerated().map { ("\(path)[\($0)]", $1) }
            case .object(let members): children = members.map { (path.isEmpty ? $0 : "\(path).\($0)", $1) }
            default: continue
            }
            guard !children.isEmpty else { continue }
            try Self.checkDepth(depth + 1, at: path)
            for (childPath, child) in children {
                try Self.check(child, at: childPath, requiringFinite)
                if child.isContainer { containers.append((child, depth + 1, childPath)) }
            }
        }
    }

    private static func check(_ value: JSONValue, at path: String, _ requiringFinite: Bool) throws {
        if requiringFinite, case .double(let number) = value, !number.isFinite {
            throw DatabaseError(kind: .notJSONCompatible, message: "a non-finite number is not JSON-compatible (at \(path))")
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// Throws `documentTooDeep` when `depth` is beyond the limit (a document is at depth 1,
    /// its members at 2, …); `path` names where.
    static func checkDepth(_ depth: Int, at path: String) throws {
        guard depth <= DocumentCollection.maximumDepth else {
            throw DatabaseError(
                kind: .documentTooDeep,
                message: "nested deeper than \(DocumentCollection.maximumDepth) levels" + (path.isEmpty ? "" : " (at \(path))"))
        }
    }
}
