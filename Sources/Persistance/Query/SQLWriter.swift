/// What the query builder writes a statement into: the SQL text (`SQLRenderer`) or only its
/// shape, the SQL without the values (`SQLShapeCollector`, the render cache's key). Every
/// clause and expression writes itself through this protocol, so both see the same tokens
/// in the same order.
protocol SQLWriter {
    /// The dialect the statement is written in, for the choices that depend on the engine.
    var dialect: any SQLDialect { get }
    /// SQL written by the library itself: keywords, operators and punctuation.
    mutating func append(_ text: String)
    /// A quoted identifier (a table, an alias, an assigned column).
    mutating func appendIdentifier(_ name: String) throws
    /// A reference to a column, qualified or not (see `SQLRenderer.appendColumn(_:)`).
    mutating func appendColumn(_ name: String) throws
    /// A reference to column `name` of the table (or alias) `table`, always qualified.
    mutating func appendColumn(_ name: String, of table: String) throws
    /// A boolean constant.
    mutating func appendBoolean(_ value: Bool)
    /// A value, written as a `?` parameter and bound.
    mutating func appendValue(_ value: DatabaseValue)
    /// Values, written as their parameters separated by commas and bound.
    mutating func appendValues(_ values: [DatabaseValue])
    /// A raw SQL fragment written by the programmer, with its own arguments.
    mutating func appendFragment(_ fragment: String, _ arguments: StatementArguments) throws
    /// Lets the bare names of `selection`'s aliases refer to those result columns in the rest
    /// of the statement; called after the result columns.
    mutating func bringIntoScope(aliasesOf selection: [SQLSelection])
    /// Starts the column scope of a subquery, whose bare column references are qualified with
    /// `qualifyingTable` (or bare when nil); returns the enclosing scope, for `leaveScope(_:)`.
    mutating func enterScope(qualifyingColumnsWith qualifyingTable: String?) -> SQLColumnScope
    /// Returns to `scope`, the scope that enclosed a subquery.
    mutating func leaveScope(_ scope: SQLColumnScope)
}

/// Which table qualifies bare column references, and which result-column aliases they may
/// refer to, in one query of a statement (the statement's own, or a subquery's).
struct SQLColumnScope {
    var qualifyingTable: String?
    var aliases: [String] = []
}

extension SQLWriter {
    /// Appends the pieces in order, each `.expression` piece as that expression's own pieces.
    /// Iterative, with an explicit stack of the enclosing expressions, so an expression nested
    /// any number of levels deep renders without deep recursion.
    mutating func append(_ pieces: [SQLPiece]) throws {
        var current = pieces.makeIterator()
        var enclosing: [IndexingIterator<[SQLPiece]>] = []
        while true {
            guard let piece = current.next() else {
                guard let outer = enclosing.popLast() else { return }
                current = outer
                continue
            }
            switch piece {
            case .text(let text): append(text)
            case .column(let name): try appendColumn(name)
            case .qualifiedColumn(let table, let name): try appendColumn(name, of: table)
            case .boolean(let value): appendBoolean(value)
            case .subquery(let clauses): try appendSubquery(clauses)
            case .value(let value): appendValue(value)
            case .values(let values): appendValues(values)
            case .fragment(let fragment, let arguments): try appendFragment(fragment, arguments)
            case .invalid(let error): throw error
            case .expression(let node):
                enclosing.append(current)
                current = node.expression.pieces.makeIterator()
            }
        }
    }

    /// Appends `(SELECT …)` of `clauses`, whose bare column references belong to its own table.
    mutating func appendSubquery(_ clauses: QueryClauses) throws {
        append("(")
        let enclosing = enterScope(qualifyingColumnsWith: clauses.qualifyingTable)
        try clauses.write(.select, to: &self)
        leaveScope(enclosing)
        append(")")
    }

    /// Appends each element, separated by `, `.
    mutating func appendList(_ elements: [some SQLRenderable]) throws {
        for (index, element) in elements.enumerated() {
            if index > 0 { append(", ") }
            try element.render(into: &self)
        }
    }
}
