/// One row found by a full-text search.
public struct FullTextMatch<Element> {
    /// The row's record.
    public var record: Element
    /// How well the row matches, as SQLite's `bm25()` reports it: smaller is better
    /// (the best rows have the most negative ranks).
    public var rank: Double
    /// The excerpt asked for with `snippet:`, its matches marked; nil when not asked for.
    public var snippet: String?
    /// The whole column asked for with `highlight:`, its matches marked; nil when not asked for.
    public var highlighted: String?
}

extension FullTextMatch: Sendable where Element: Sendable {}
extension FullTextMatch: Equatable where Element: Equatable {}

/// An excerpt of one indexed column around the matches, for `FullTextIndex.search`.
public struct FullTextSnippet: Sendable, Hashable {
    /// The indexed column to excerpt.
    public var column: String
    /// The most words in the excerpt (1…64).
    public var words: Int
    /// The text placed before each match.
    public var open: String
    /// The text placed after each match.
    public var close: String
    /// The text marking where the column's text was cut.
    public var ellipsis: String

    /// An excerpt of `column` of at most `words` words, matches between `open` and `close`.
    public init(column: String, words: Int = 12, open: String = "[", close: String = "]", ellipsis: String = "…") {
        self.column = column
        self.words = words
        self.open = open
        self.close = close
        self.ellipsis = ellipsis
    }
}

/// The whole text of one indexed column with its matches marked, for `FullTextIndex.search`.
public struct FullTextHighlight: Sendable, Hashable {
    /// The indexed column to mark.
    public var column: String
    /// The text placed before each match.
    public var open: String
    /// The text placed after each match.
    public var close: String

    /// The text of `column`, matches between `open` and `close`.
    public init(column: String, open: String = "[", close: String = "]") {
        self.column = column
        self.open = open
        self.close = close
    }
}
