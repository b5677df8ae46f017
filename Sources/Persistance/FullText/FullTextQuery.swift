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

    /// The pattern to bind to `MATCH`, or nil when the query has no word and matches nothing.
    func pattern(_ dialect: FullTextDialect) -> String? {
        switch form {
        case .raw(let expression):
            return expression.isEmpty ? nil : expression
        case .phrase(let text):
            let words = Self.words(text)
            return words.isEmpty ? nil : dialect.quotedPhrase(words.joined(separator: " "))
        case .allWords(let text):
            return joined(Self.words(text).map(dialect.quotedPhrase), separator: " ")
        case .anyWord(let text):
            return joined(Self.words(text).map(dialect.quotedPhrase), separator: " OR ")
        case .prefix(let text):
            return joined(Self.words(text).map(dialect.quotedPrefix), separator: " ")
        }
    }

    private func joined(_ terms: [String], separator: String) -> String? {
        terms.isEmpty ? nil : terms.joined(separator: separator)
    }
}
