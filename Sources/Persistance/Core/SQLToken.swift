/// One token of SQL text, enough to find and edit the names in a statement: rebuilding a
/// table on engines without `RENAME COLUMN` or `DROP COLUMN` edits the SQL SQLite stored for
/// it, and the change recorder reads the savepoint a raw `SAVEPOINT`/`RELEASE`/`ROLLBACK TO`
/// names.
struct SQLToken: Equatable {
    enum Kind: Equatable {
        /// A bare word: a keyword or an unquoted name.
        case word
        /// A name in `"…"`, `[…]` or `` `…` ``.
        case quotedName
        /// A `'…'` string literal.
        case string
        /// A number literal.
        case number
        /// Any other character: `(`, `)`, `,`, an operator.
        case symbol
    }

    let kind: Kind
    /// Where the token lies in the text.
    let range: Range<String.Index>
    /// The token as written.
    let text: Substring

    /// The name the token stands for, unquoted, if it is a bare word or a quoted name.
    var name: String? {
        switch kind {
        case .word:
            return String(text)
        case .quotedName:
            let inner = text.dropFirst().dropLast()
            guard let quote = text.first, quote != "[" else { return String(inner) }
            return inner.replacingOccurrences(of: String(repeating: quote, count: 2), with: String(quote))
        case .string, .number, .symbol:
            return nil
        }
    }

    /// Whether the token is the unquoted keyword `keyword` (ASCII case-insensitive).
    func isKeyword(_ keyword: String) -> Bool {
        kind == .word && RowColumns.fold(String(text)) == RowColumns.fold(keyword)
    }

    /// Whether the token names `name` (ASCII case-insensitive, like SQLite), quoted or not.
    func names(_ name: String) -> Bool {
        self.name.map { RowColumns.fold($0) == RowColumns.fold(name) } ?? false
    }

    /// Whether the token is the symbol `symbol`.
    func isSymbol(_ symbol: Character) -> Bool {
        kind == .symbol && text.first == symbol
    }

    /// The tokens of `sql`, without white space and comments.
    static func tokens(of sql: String) -> [SQLToken] {
        var tokens: [SQLToken] = []
        var index = sql.startIndex
        func advance(while condition: (Character) -> Bool) {
            while index < sql.endIndex && condition(sql[index]) { index = sql.index(after: index) }
        }
        /// Moves past a quoted run that ends with `close`, where a doubled `close` stands for one.
        func skipQuoted(closingWith close: Character, doubling: Bool) {
            index = sql.index(after: index)
            while index < sql.endIndex {
                let character = sql[index]
                index = sql.index(after: index)
                guard character == close else { continue }
                guard doubling, index < sql.endIndex, sql[index] == close else { return }
                index = sql.index(after: index)
            }
        }
        while index < sql.endIndex {
            let start = index
            let character = sql[index]
            let next = sql.index(after: index) < sql.endIndex ? sql[sql.index(after: index)] : nil
            let kind: Kind
            switch character {
            case _ where character.isWhitespace:
                advance { $0.isWhitespace }
                continue
            case "-" where next == "-":
                advance { $0 != "\n" }
                continue
            case "/" where next == "*":
                index = sql.index(index, offsetBy: 2)
                while index < sql.endIndex, !sql[index...].hasPrefix("*/") { index = sql.index(after: index) }
                index = sql.index(index, offsetBy: 2, limitedBy: sql.endIndex) ?? sql.endIndex
                continue
            case "\"", "`":
                skipQuoted(closingWith: character, doubling: true)
                kind = .quotedName
            case "[":
                skipQuoted(closingWith: "]", doubling: false)
                kind = .quotedName
            case "'":
                skipQuoted(closingWith: "'", doubling: true)
                kind = .string
            case _ where character.isNumber || (character == "." && next?.isNumber == true):
                advance { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
                kind = .number
            case _ where character.isLetter || character == "_" || !character.isASCII:
                advance { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" || !$0.isASCII }
                kind = .word
            default:
                index = sql.index(after: index)
                kind = .symbol
            }
            tokens.append(SQLToken(kind: kind, range: start..<index, text: sql[start..<index]))
        }
        return tokens
    }
}
