/// The SQL of one full-text engine: FTS5 where the linked SQLite has it (the `SystemSQLite`
/// build), FTS4 otherwise (SQLite 3.15 in the `SQLCipher` build). Everything that differs
/// between the two lives here; the index, its queries and its results are the same.
struct FullTextDialect: Sendable {
    /// Whether this is FTS5 (else FTS4).
    let isFTS5: Bool

    /// The engine of the linked SQLite.
    static let current = FullTextDialect(isFTS5: SQLiteEngine.supportsFTS5)

    /// The most words one `MATCH` pattern holds: FTS4 refuses an expression tree deeper than
    /// 12 levels ("FTS expression tree is too large"), which 4,096 terms reach; FTS5 has no limit.
    var maximumTermsPerMatch: Int { isFTS5 ? .max : 4_000 }

    /// `CREATE VIRTUAL TABLE` of an external-content index over `columns` of `table`.
    func createSQL(index: String, table: String, columns: [String], tokenizer: FullTextTokenizer) -> String {
        let quotedColumns = columns.map(TableSchema.quote).joined(separator: ", ")
        if isFTS5 {
            return "CREATE VIRTUAL TABLE IF NOT EXISTS \(TableSchema.quote(index)) USING fts5(\(quotedColumns), "
                + "content=\(literal(table)), content_rowid='rowid', tokenize=\(literal(tokenizerArguments(tokenizer))))"
        }
        return "CREATE VIRTUAL TABLE IF NOT EXISTS \(TableSchema.quote(index)) USING fts4(\(quotedColumns), "
            + "content=\(literal(table)), tokenize=\(tokenizerArguments(tokenizer)))"
    }

    private func tokenizerArguments(_ tokenizer: FullTextTokenizer) -> String {
        switch tokenizer {
        case .ascii: "ascii"
        case .unicode61(let removeDiacritics):
            isFTS5
                ? "unicode61 remove_diacritics \(removeDiacritics ? 1 : 0)"
                : "unicode61 \"remove_diacritics=\(removeDiacritics ? 1 : 0)\""
        }
    }

    /// The triggers that keep an external-content index in step with its table.
    /// FTS5 removes a row's old tokens by inserting a `'delete'` command with the old
    /// values; FTS4 deletes by `docid` before the table's row changes.
    func triggerSQL(index: String, table: String, columns: [String]) -> [String] {
        let quotedIndex = TableSchema.quote(index)
        let quotedTable = TableSchema.quote(table)
        let list = columns.map(TableSchema.quote).joined(separator: ", ")
        let new = columns.map { "new." + TableSchema.quote($0) }.joined(separator: ", ")
        let old = columns.map { "old." + TableSchema.quote($0) }.joined(separator: ", ")
        let insertNew = "INSERT INTO \(quotedIndex)(rowid, \(list)) VALUES (new.rowid, \(new));"
        func trigger(_ suffix: String, _ timing: String, _ body: String) -> String {
            "CREATE TRIGGER IF NOT EXISTS \(TableSchema.quote(index + "_" + suffix)) \(timing) ON \(quotedTable) "
                + "BEGIN \(body) END"
        }
        if isFTS5 {
            let deleteOld = "INSERT INTO \(quotedIndex)(\(quotedIndex), rowid, \(list)) VALUES ('delete', old.rowid, \(old));"
            return [
                trigger("ai", "AFTER INSERT", insertNew),
                trigger("ad", "AFTER DELETE", deleteOld),
                trigger("au", "AFTER UPDATE", deleteOld + " " + insertNew),
            ]
        }
        let deleteOld = "DELETE FROM \(quotedIndex) WHERE docid = old.rowid;"
        return [
            trigger("ai", "AFTER INSERT", insertNew),
            trigger("bd", "BEFORE DELETE", deleteOld),
            trigger("bu", "BEFORE UPDATE", deleteOld),
            trigger("au", "AFTER UPDATE", insertNew),
        ]
    }

    /// The names of the triggers `triggerSQL` creates.
    func triggerNames(index: String) -> [String] {
        (isFTS5 ? ["ai", "ad", "au"] : ["ai", "bd", "bu", "au"]).map { index + "_" + $0 }
    }

    /// The command that rebuilds an external-content index from its table.
    func rebuildSQL(index: String) -> String {
        let quoted = TableSchema.quote(index)
        return "INSERT INTO \(quoted)(\(quoted)) VALUES ('rebuild')"
    }

    /// The ranking expression of the current match: smaller is better. FTS5's `bm25`; on
    /// FTS4 the same Okapi BM25 computed from `matchinfo` by `FullTextRankFunction`.
    func rankSQL(index: String) -> String {
        isFTS5
            ? "bm25(\(TableSchema.quote(index)))"
            : "\(FullTextRankFunction.name)(matchinfo(\(TableSchema.quote(index)), 'pcnalx'))"
    }

    /// A snippet of column `column` (its position in the index) around the matches, with
    /// four parameters: opening mark, closing mark, ellipsis, token count.
    func snippetSQL(index: String, column: Int) -> String {
        isFTS5
            ? "snippet(\(TableSchema.quote(index)), \(column), ?, ?, ?, ?)"
            : "snippet(\(TableSchema.quote(index)), ?, ?, ?, \(column), ?)"
    }

    /// The most tokens a snippet may have (FTS4 allows 64, FTS5 64 too).
    static let maximumSnippetTokens = 64

    /// The whole text of column `column` with every match marked, with two parameters:
    /// opening and closing mark. FTS4 has no `highlight`: its `offsets` are read instead
    /// and the marks placed by `FullTextHighlighter`.
    func highlightSQL(index: String, column: Int) -> String {
        isFTS5
            ? "highlight(\(TableSchema.quote(index)), \(column), ?, ?)"
            : "offsets(\(TableSchema.quote(index)))"
    }

    /// A phrase as the engine's query syntax writes it. FTS5 escapes a double quote by
    /// doubling it; FTS4 cannot escape one, and its tokenizers split on it anyway.
    func quotedPhrase(_ text: String) -> String {
        isFTS5
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            : "\"" + text.replacingOccurrences(of: "\"", with: " ") + "\""
    }

    /// A word that matches every token beginning with it: FTS5 marks the quoted string,
    /// FTS4 the last word inside the quotes.
    func quotedPrefix(_ word: String) -> String {
        isFTS5 ? quotedPhrase(word) + "*" : quotedPhrase(word + "*")
    }

    /// A string literal in a virtual-table declaration, where nothing can be bound.
    private func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
