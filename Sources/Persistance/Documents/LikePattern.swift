/// A `LIKE` pattern as NSPredicate reads it (SRPPlist's filters are NSPredicates): `*`
/// matches any run of characters, `?` exactly one, `\` makes the next character literal,
/// and the pattern must match the whole string. Case-sensitive unless made
/// case-insensitive (NSPredicate's `LIKE[c]`), which compares characters lowercased.
package struct LikePattern {
    private enum Token: Equatable {
        case anyRun, anyOne
        case literal(Character)
    }

    private let tokens: [Token]
    private let caseInsensitive: Bool

    package init(_ pattern: String, caseInsensitive: Bool) {
        var tokens: [Token] = []
        var escaped = false
        for character in pattern {
            if escaped {
                tokens.append(.literal(character))
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "*": tokens.append(.anyRun)
            case "?": tokens.append(.anyOne)
            default: tokens.append(.literal(character))
            }
        }
        if escaped { tokens.append(.literal("\\")) }  // a trailing backslash stands for itself
        self.tokens = tokens
        self.caseInsensitive = caseInsensitive
    }

    func matches(_ string: String) -> Bool {
        let text = Array(string)
        // Classic wildcard matching with one backtracking point for the last `*`.
        var textIndex = 0, tokenIndex = 0
        var starToken: Int?, starText = 0
        while textIndex < text.count {
            if tokenIndex < tokens.count, tokens[tokenIndex] == .anyRun {
                starToken = tokenIndex
                starText = textIndex
                tokenIndex += 1
            } else if tokenIndex < tokens.count, accepts(tokens[tokenIndex], text[textIndex]) {
                tokenIndex += 1
                textIndex += 1
            } else if let star = starToken {
                tokenIndex = star + 1
                starText += 1
                textIndex = starText
            } else {
                return false
            }
        }
        while tokenIndex < tokens.count, tokens[tokenIndex] == .anyRun { tokenIndex += 1 }
        return tokenIndex == tokens.count
    }

    private func accepts(_ token: Token, _ character: Character) -> Bool {
        switch token {
        case .anyRun: false
        case .anyOne: true
        case .literal(let literal):
            literal == character || caseInsensitive && literal.lowercased() == character.lowercased()
        }
    }

    /// The same pattern in SQLite's `GLOB` syntax, which is case-sensitive whatever the
    /// pragmas: `*` and `?` as they are, `[*]`, `[?]` and `[[]` for literal wildcards, and
    /// `[aA]` for each ASCII letter when case is ignored. Nil for a pattern whose wildcards
    /// could make SQLite's backtracking matcher slow, or that is longer than SQLite accepts.
    var glob: String? {
        guard tokens.count(where: { $0 == .anyRun }) <= Self.maximumGlobStars else { return nil }
        var glob = ""
        for token in tokens {
            switch token {
            case .anyRun: glob += "*"
            case .anyOne: glob += "?"
            case .literal(let character) where "*?[".contains(character): glob += "[\(character)]"
            case .literal(let character) where caseInsensitive && character.isASCII && character.isLetter:
                glob += "[\(character.lowercased())\(character.uppercased())]"
            case .literal(let character): glob.append(character)
            }
        }
        return glob.utf8.count <= Self.maximumGlobLength ? glob : nil
    }

    /// The same pattern in SQL's `LIKE` syntax with `\` as the escape character (PostgreSQL's
    /// default): `%` and `_` for the wildcards, `\%`, `\_` and `\\` for those characters, and
    /// letters lowercased when case is ignored (to match against a lowercased string).
    package var likePattern: String {
        var like = ""
        for token in tokens {
            switch token {
            case .anyRun: like += "%"
            case .anyOne: like += "_"
            case .literal(let character) where "%_\\".contains(character): like += "\\\(character)"
            case .literal(let character): like += caseInsensitive ? character.lowercased() : String(character)
            }
        }
        return like
    }

    /// SQLite's default limit on the length of a `LIKE` or `GLOB` pattern, in bytes.
    private static let maximumGlobLength = 50_000
    /// The most `*` a pattern handed to SQLite may hold.
    private static let maximumGlobStars = 8
}
