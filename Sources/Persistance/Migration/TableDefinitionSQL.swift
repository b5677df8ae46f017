/// The `CREATE TABLE` text SQLite stored for a table (`sqlite_master.sql`), split into its
/// column definitions and table constraints, so that a rebuild can create the same table
/// under another name with one column renamed, dropped or given another type — constraints,
/// defaults, collations, `AUTOINCREMENT` and foreign keys kept as written.
struct TableDefinitionSQL {
    /// A column definition's parts, as positions in ``tokens``.
    struct ColumnDefinitionTokens {
        /// The token naming the column.
        let name: Int
        /// The tokens of the declared type (empty when there is none).
        let type: Range<Int>
        /// Every token of the definition.
        let all: Range<Int>
    }

    let table: String
    let sql: String
    let tokens: [SQLToken]
    /// The tokens naming the table (with a schema qualifier, if any).
    private let nameTokens: ClosedRange<Int>
    /// The comma-separated items between the outer parentheses.
    private let items: [Range<Int>]

    /// Words that end a column's type and start one of its constraints.
    private static let constraintKeywords: Set<String> = [
        "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS",
    ]
    /// Words that start a table constraint rather than a column definition.
    private static let tableConstraintKeywords: Set<String> = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]

    /// Reads the stored SQL of `table`.
    /// - Throws: `.misuse` when the table does not exist or was not made by `CREATE TABLE … (…)`.
    init(table: String, in connection: Connection) throws {
        guard let sql = try SQLiteCatalog.storedSQL(ofTable: table, in: connection) else {
            throw DatabaseError.invalidSchemaChange("no table \"\(table)\"")
        }
        try self.init(table: table, sql: sql)
    }

    init(table: String, sql: String) throws {
        self.table = table
        self.sql = sql
        tokens = SQLToken.tokens(of: sql)
        guard let open = tokens.firstIndex(where: { $0.isSymbol("(") }), open > 0,
            let close = Self.matchingParenthesis(tokens, from: open), close == tokens.count - 1
                || tokens[(close + 1)...].allSatisfy({ $0.kind == .word || $0.isSymbol(",") })
        else {
            throw DatabaseError.invalidSchemaChange("cannot read the definition of table \"\(table)\": \(sql)")
        }
        let first = open >= 3 && tokens[open - 2].isSymbol(".") ? open - 3 : open - 1
        nameTokens = first...(open - 1)
        var items: [Range<Int>] = []
        var start = open + 1
        var position = open + 1
        while position < close {
            if tokens[position].isSymbol("(") {
                position = Self.matchingParenthesis(tokens, from: position) ?? close
            } else if tokens[position].isSymbol(",") {
                items.append(start..<position)
                start = position + 1
            }
            position += 1
        }
        items.append(start..<close)
        self.items = items
    }

    /// The definition of `column`, if the table defines it.
    func column(named column: String) -> ColumnDefinitionTokens? {
        columnDefinitions.first { tokens[$0.name].names(column) }
    }

    /// The column definitions, in order.
    var columnDefinitions: [ColumnDefinitionTokens] {
        items.compactMap { item in
            guard let first = item.first, tokens[first].name != nil,
                !Self.tableConstraintKeywords.contains(where: tokens[first].isKeyword)
            else { return nil }
            var end = first + 1
            while end < item.upperBound, !Self.constraintKeywords.contains(where: tokens[end].isKeyword) {
                end = tokens[end].isSymbol("(") ? (Self.matchingParenthesis(tokens, from: end) ?? end) + 1 : end + 1
            }
            return ColumnDefinitionTokens(name: first, type: (first + 1)..<min(end, item.upperBound), all: item)
        }
    }

    // MARK: Edits

    /// The `CREATE TABLE` of the table under `quotedName`, with `column` renamed to `newName`
    /// wherever the table's own definition names it.
    func renamingColumn(_ column: String, to newName: String, tableAs quotedName: String) -> String {
        let replacements = Self.columnReferences(column, in: tokens, within: bodyRange, skipping: typeTokens)
            .map { (tokens[$0].range, TableSchema.quote(newName)) }
        return edited(replacements + [tableNameReplacement(quotedName)])
    }

    /// The `CREATE TABLE` of the table under `quotedName`, without `column`.
    /// - Throws: `.misuse` when another part of the definition (a constraint) names the column.
    func droppingColumn(_ column: String, tableAs quotedName: String) throws -> String {
        guard let definition = self.column(named: column), let item = items.firstIndex(of: definition.all) else {
            throw DatabaseError.invalidSchemaChange("table \"\(table)\" has no column \"\(column)\"")
        }
        let others = Self.columnReferences(column, in: tokens, within: bodyRange, skipping: typeTokens)
            .filter { !definition.all.contains($0) }
        if !others.isEmpty {
            throw DatabaseError.invalidSchemaChange(
                "cannot drop column \"\(column)\" of table \"\(table)\": a constraint of the table uses it")
        }
        let removed: Range<String.Index>
        if item + 1 < items.count {
            removed = tokens[definition.all.lowerBound].range.lowerBound..<tokens[items[item + 1].lowerBound].range.lowerBound
        } else {
            guard item > 0 else {
                throw DatabaseError.invalidSchemaChange("cannot drop column \"\(column)\": it is the only column of table \"\(table)\"")
            }
            removed = tokens[items[item - 1].upperBound - 1].range.upperBound..<tokens[definition.all.upperBound - 1].range.upperBound
        }
        return edited([(removed, ""), tableNameReplacement(quotedName)])
    }

    /// The `CREATE TABLE` of the table under `quotedName`, with `column` declared as `type`.
    func retypingColumn(_ column: String, to type: String, tableAs quotedName: String) throws -> String {
        guard let definition = self.column(named: column) else {
            throw DatabaseError.invalidSchemaChange("table \"\(table)\" has no column \"\(column)\"")
        }
        let replacement: (Range<String.Index>, String) = definition.type.isEmpty
            ? (tokens[definition.name].range.upperBound..<tokens[definition.name].range.upperBound, " " + type)
            : (tokens[definition.type.lowerBound].range.lowerBound..<tokens[definition.type.upperBound - 1].range.upperBound, type)
        return edited([replacement, tableNameReplacement(quotedName)])
    }

    // MARK: Other schema SQL

    /// `sql` (a `CREATE INDEX`) with `column` renamed to `newName` in what it indexes.
    static func renamingColumn(_ column: String, to newName: String, inIndexSQL sql: String) -> String {
        let tokens = SQLToken.tokens(of: sql)
        guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }), on + 2 < tokens.count else { return sql }
        let references = columnReferences(column, in: tokens, within: (on + 2)..<tokens.count, skipping: [])
        return apply(references.map { (tokens[$0].range, TableSchema.quote(newName)) }, to: sql)
    }

    /// Whether `sql` (an index's or trigger's) names `column` anywhere a column could be named.
    static func mentions(_ column: String, in sql: String) -> Bool {
        let tokens = SQLToken.tokens(of: sql)
        return !columnReferences(column, in: tokens, within: 0..<tokens.count, skipping: []).isEmpty
    }

    // MARK: Helpers

    private var bodyRange: Range<Int> { (items.first?.lowerBound ?? 0)..<(items.last?.upperBound ?? 0) }

    private var typeTokens: Set<Int> { Set(columnDefinitions.flatMap { $0.type }) }

    private func tableNameReplacement(_ quotedName: String) -> (Range<String.Index>, String) {
        (tokens[nameTokens.lowerBound].range.lowerBound..<tokens[nameTokens.upperBound].range.upperBound, quotedName)
    }

    private func edited(_ replacements: [(Range<String.Index>, String)]) -> String {
        Self.apply(replacements, to: sql)
    }

    private static func apply(_ replacements: [(Range<String.Index>, String)], to sql: String) -> String {
        var result = sql
        for (range, text) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            result.replaceSubrange(range, with: text)
        }
        return result
    }

    /// The tokens in `range` that name `column`: every name except the types in `skipped`,
    /// what `REFERENCES` points at in another table, collation names and function names.
    private static func columnReferences(
        _ column: String, in tokens: [SQLToken], within range: Range<Int>, skipping skipped: Set<Int>
    ) -> [Int] {
        var references: [Int] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let token = tokens[position]
            if token.isKeyword("REFERENCES") {
                position += 2
                if position < range.upperBound, tokens[position].isSymbol("(") {
                    position = (matchingParenthesis(tokens, from: position) ?? range.upperBound - 1) + 1
                }
                continue
            }
            if token.isKeyword("COLLATE") {
                position += 2
                continue
            }
            let isCall = token.kind == .word && position + 1 < range.upperBound && tokens[position + 1].isSymbol("(")
            if !skipped.contains(position), !isCall, token.names(column) {
                references.append(position)
            }
            position += 1
        }
        return references
    }

    /// The position of the `)` that closes the `(` at `open`.
    private static func matchingParenthesis(_ tokens: [SQLToken], from open: Int) -> Int? {
        var depth = 0
        for position in open..<tokens.count {
            if tokens[position].isSymbol("(") { depth += 1 }
            if tokens[position].isSymbol(")") {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }
}
