/// An SQL `LIKE` pattern: `%` matches any run of characters, `_` exactly one, and ASCII
/// letters match either case (as SQLite's `LIKE` does).
struct LikePattern {
    private let pattern: [Character]

    init(_ pattern: String) {
        self.pattern = Array(pattern)
    }

    func matches(_ string: String) -> Bool {
        let text = Array(string)
        // Classic wildcard matching with one backtracking point for the last `%`.
        var textIndex = 0, patternIndex = 0
        var starPattern: Int?, starText = 0
        while textIndex < text.count {
            if patternIndex < pattern.count, pattern[patternIndex] == "%" {
                starPattern = patternIndex
                starText = textIndex
                patternIndex += 1
            } else if patternIndex < pattern.count,
                pattern[patternIndex] == "_" || Self.foldsEqual(pattern[patternIndex], text[textIndex])
            {
                patternIndex += 1
                textIndex += 1
            } else if let star = starPattern {
                patternIndex = star + 1
                starText += 1
                textIndex = starText
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "%" { patternIndex += 1 }
        return patternIndex == pattern.count
    }

    /// The same pattern in SQLite's `GLOB` syntax, which no pragma makes case-sensitive or
    /// not: `*` and `?` for `%` and `_`, `[aA]` for each ASCII letter, `[*]`, `[?]` and `[[]`
    /// for GLOB's own wildcards. Nil for a pattern whose wildcards could make SQLite's
    /// backtracking matcher slow, or that is longer than SQLite accepts.
    var glob: String? {
        guard pattern.count(where: { $0 == "%" }) <= Self.maximumGlobStars else { return nil }
        var glob = ""
        for character in pattern {
            switch character {
            case "%": glob += "*"
            case "_": glob += "?"
            case "*", "?", "[": glob += "[\(character)]"
            case _ where character.isASCII && character.isLetter:
                glob += "[\(character.lowercased())\(character.uppercased())]"
            default: glob.append(character)
            }
        }
        return glob.utf8.count <= Self.maximumGlobLength ? glob : nil
    }

    /// SQLite's default limit on the length of a `LIKE` or `GLOB` pattern, in bytes.
    private static let maximumGlobLength = 50_000
    /// The most `%` a pattern handed to SQLite may hold.
    private static let maximumGlobStars = 8

    private static func foldsEqual(_ left: Character, _ right: Character) -> Bool {
        guard left != right else { return true }
        guard left.isASCII, right.isASCII else { return false }
        return left.lowercased() == right.lowercased()
    }
}
