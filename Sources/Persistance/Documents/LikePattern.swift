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

    private static func foldsEqual(_ left: Character, _ right: Character) -> Bool {
        guard left != right else { return true }
        guard left.isASCII, right.isASCII else { return false }
        return left.lowercased() == right.lowercased()
    }
}
