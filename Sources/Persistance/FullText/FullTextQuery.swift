/// What a full-text search looks for, written once for both engines.
///
/// Plain text (a string literal, or `.allWords`) matches rows holding every word of it, in
/// any order; user input is safe there, since every word is quoted. `.phrase` wants the
/// words side by side, `.anyWord` any one of them, `.prefix` words beginning with each
/// given one. `.raw` passes the engine's own query syntax through (FTS5 on the
/// `SystemSQLite` build, FTS4 on the `SQLCipher` build), for what the others do not cover.
/// ```swift
/// try search.search("crème brûlée", in: conn)          // both words, anywhere
/// try search.search(.phrase("crème brûlée"), in: conn)  // side by side
/// try search.search(.prefix("crè"), in: conn)           // crème, crèpe, …
/// ```
/// A query with no word in it matches no row.
public struct FullTextQuery: Sendable, Hashable, ExpressibleByStringLiteral {
    enum Form: Sendable, Hashable {
        case allWords(String), anyWord(String), phrase(String), prefix(String), raw(String)
    }

    let form: Form

    /// Rows holding every word of `text`, in any order.
    public static func allWords(_ text: String) -> FullTextQuery { FullTextQuery(form: .allWords(text)) }
    /// Rows holding at least one word of `text`.
    public static func anyWord(_ text: String) -> FullTextQuery { FullTextQuery(form: .anyWord(text)) }
    /// Rows holding the words of `text` next to each other, in this order.
    public static func phrase(_ text: String) -> FullTextQuery { FullTextQuery(form: .phrase(text)) }
    /// Rows holding, for each word of `text`, a word that begins with it.
    public static func prefix(_ text: String) -> FullTextQuery { FullTextQuery(form: .prefix(text)) }
    /// The engine's own query syntax, passed through unchanged (bound, never spliced into SQL).
    public static func raw(_ expression: String) -> FullTextQuery { FullTextQuery(form: .raw(expression)) }

    /// Rows holding every word of `value`, like `allWords`.
    public init(stringLiteral value: String) {
        form = .allWords(value)
    }

    private init(form: Form) {
        self.form = form
    }

    /// The words of `text`: runs of letters, digits and marks. Everything else separates
    /// words, as the index's tokenizer does, so no query syntax survives.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: isSeparator).map(String.init)
    }

    private static func isSeparator(_ character: Character) -> Bool {
        if character.isLetter || character.isNumber { return false }
        return !character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: true
            default: false
            }
        }
    }

    /// What to bind to `MATCH`, or nil when the query has no word and matches nothing.
    ///
    /// Repeated words are asked for once. FTS4 parses at most
    /// `FullTextDialect.maximumTermsPerMatch` words in one `MATCH` (its expression tree is at
    /// most 12 levels deep); beyond that the words are split into several patterns, whose rows
    /// intersect (every word) or unite (any word). FTS5 has no such limit.
    func match(_ dialect: FullTextDialect) -> FullTextMatchPatterns? {
        switch form {
        case .raw(let expression):
            return expression.isEmpty ? nil : .every([expression])
        case .phrase(let text):
            let words = Self.words(text)
            return words.isEmpty ? nil : .every([dialect.quotedPhrase(words.joined(separator: " "))])
        case .allWords(let text):
            return .every(Self.distinctWords(text).map(dialect.quotedPhrase), dialect)
        case .anyWord(let text):
            return .any(Self.distinctWords(text).map(dialect.quotedPhrase), dialect)
        case .prefix(let text):
            return .every(Self.distinctWords(text).map(dialect.quotedPrefix), dialect)
        }
    }

    /// The words of `text`, each once, in their first order.
    private static func distinctWords(_ text: String) -> [String] {
        var seen = Set<String>()
        return words(text).filter { seen.insert($0).inserted }
    }
}

/// The patterns a full-text query binds to `MATCH`: one, or several when the engine cannot
/// take all its words in one.
enum FullTextMatchPatterns: Equatable {
    /// Rows matching every pattern.
    case every([String])
    /// Rows matching at least one pattern.
    case any([String])

    var patterns: [String] {
        switch self {
        case .every(let patterns), .any(let patterns): patterns
        }
    }

    /// `terms` joined into patterns of at most the dialect's terms per `MATCH`, or nil for no term.
    static func every(_ terms: [String], _ dialect: FullTextDialect) -> FullTextMatchPatterns? {
        terms.isEmpty ? nil : .every(chunks(of: terms, dialect).map { $0.joined(separator: " ") })
    }

    /// `terms` joined with `OR` into patterns of at most the dialect's terms per `MATCH`.
    static func any(_ terms: [String], _ dialect: FullTextDialect) -> FullTextMatchPatterns? {
        terms.isEmpty ? nil : .any(chunks(of: terms, dialect).map { $0.joined(separator: " OR ") })
    }

    private static func chunks(of terms: [String], _ dialect: FullTextDialect) -> [ArraySlice<String>] {
        stride(from: 0, to: terms.count, by: dialect.maximumTermsPerMatch).map {
            terms[$0..<min($0 + dialect.maximumTermsPerMatch, terms.count)]
        }
    }
}
