/// How a full-text index splits text into searchable tokens.
public enum FullTextTokenizer: Sendable, Hashable {
    /// SQLite's `unicode61` tokenizer: words of any script, folded to lower case; with
    /// `removeDiacritics`, `café` and `cafe` are the same token.
    case unicode61(removeDiacritics: Bool = true)
    /// SQLite's `ascii` tokenizer: ASCII letters and digits fold to lower case, every
    /// non-ASCII character is part of a word as it is.
    case ascii
}
