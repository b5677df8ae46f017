/// What a statement's SQL tells its span, by OpenTelemetry's database conventions: the
/// operation (its first keyword: `SELECT`, `INSERT`, …, or the main one after a `WITH`), the
/// first table it names where the form is known (`db.collection.name`), and its text with every
/// literal replaced by `?` (`db.query.text`: bound values never appear in it anyway, and
/// neither do values written in the SQL).
struct StatementSummary {
    let operation: String
    let collection: String?
    let queryText: String

    /// The span name: the operation and its table (`SELECT player`), or the operation alone.
    var spanName: String { collection.map { "\(operation) \($0)" } ?? operation }

    init(sql: String) {
        let (tokens, queryText) = SQLScanner.scan(sql)
        self.queryText = queryText
        let words = tokens.map { $0.kind == .word ? $0.text.uppercased() : nil }
        var position = words.firstIndex { $0 != nil } ?? tokens.endIndex
        var operation = position < tokens.endIndex ? words[position]! : "SQL"
        if operation == "WITH" {
            // The statement's own operation is the first one outside the parentheses of its tables.
            let main = tokens.indices.dropFirst(position + 1).first { index in
                tokens[index].depth == 0 && ["SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE"].contains(words[index])
            }
            if let main {
                position = main
                operation = words[main]!
            }
        }
        self.operation = operation
        collection = Self.collection(of: operation, in: tokens, words: words, after: position)
    }

    /// The first table the statement names, for the forms whose table has a known place.
    private static func collection(of operation: String, in tokens: [SQLToken], words: [String?], after position: Int) -> String? {
        guard position < tokens.endIndex else { return nil }
        let depth = tokens[position].depth
        /// The index of the first word `word` after the operation, at its depth.
        func index(of word: String) -> Int? {
            tokens.indices.dropFirst(position + 1).first { tokens[$0].depth == depth && words[$0] == word }
        }
        let nameStart: Int?
        switch operation {
        case "SELECT", "DELETE": nameStart = index(of: "FROM").map { $0 + 1 }
        case "INSERT", "REPLACE": nameStart = index(of: "INTO").map { $0 + 1 }
        case "UPDATE": nameStart = position + (words.indices.contains(position + 1) && words[position + 1] == "OR" ? 3 : 1)
        case "CREATE", "DROP", "ALTER":
            guard let table = index(of: "TABLE") else { return nil }
            var start = table + 1
            while start < tokens.endIndex, ["IF", "NOT", "EXISTS"].contains(words[start]) { start += 1 }
            nameStart = start
        default: nameStart = nil
        }
        return nameStart.flatMap { name(at: $0, in: tokens) }
    }

    /// The possibly qualified name (`main.player`) that starts at `start`, if one does.
    private static func name(at start: Int, in tokens: [SQLToken]) -> String? {
        var parts = [String]()
        var index = start
        while index < tokens.endIndex, tokens[index].kind == .word || tokens[index].kind == .quotedName {
            parts.append(tokens[index].text)
            guard index + 2 < tokens.endIndex, tokens[index + 1].text == ".",
                tokens[index + 1].kind == .symbol
            else { break }
            index += 2
        }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }
}
