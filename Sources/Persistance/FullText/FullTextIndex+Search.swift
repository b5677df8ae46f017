extension FullTextIndex {
    /// A filter for the table's query builder: rows the index matches for `query`.
    /// ```swift
    /// try notes.query().filter(search.matches("café") && Column("archived") == false).fetchAll(conn)
    /// ```
    /// A query with no word matches no row.
    public func matches(_ query: FullTextQuery) -> SQLExpression {
        guard let match = query.match(dialect) else { return .sql("0") }
        let index = TableSchema.quote(name)
        let select = "SELECT rowid FROM \(index) WHERE \(index) MATCH ?"
        let rowids: String
        switch match {
        case .every(let patterns):
            rowids = patterns.map { _ in "\(TableSchema.quote(table.name)).rowid IN (\(select))" }.joined(separator: " AND ")
        case .any(let patterns):
            rowids = "\(TableSchema.quote(table.name)).rowid IN (\(patterns.map { _ in select }.joined(separator: " UNION ")))"
        }
        return .sql(rowids, StatementArguments(match.patterns.map { $0 }))
    }

    /// The rows matching `query`, best first (by BM25 rank), with an excerpt or the whole
    /// text of a column marked when asked for.
    /// ```swift
    /// let hits = try search.search("crème", limit: 5, snippet: FullTextSnippet(column: "body"), in: conn)
    /// hits[0].snippet    // "…la [crème] brûlée…"
    /// ```
    /// - Throws: `.invalidFullTextIndex` for a bad declaration or an unindexed column,
    ///   `.misuse` for a negative limit or a snippet length outside 1…64,
    ///   `.fullTextQueryTooLarge` for an `.anyWord` query of more distinct words than FTS4
    ///   ranks in one search (4,000, `SQLCipher` build only; `matches(_:)` takes any number),
    ///   and SQLite's error for a malformed `.raw` query or a missing index. On FTS4, an
    ///   `.allWords` or `.prefix` query of more words is ranked by its first 4,000.
    public func search(
        _ query: FullTextQuery, limit: Int? = nil, snippet: FullTextSnippet? = nil,
        highlight: FullTextHighlight? = nil, in connection: Connection
    ) throws -> [FullTextMatch<Element>] {
        if let declarationError { throw declarationError }
        if let limit, limit < 0 { throw DatabaseError.misuse("a search limit cannot be negative (\(limit))") }
        guard let match = query.match(dialect) else { return [] }
        // The rank is read from one MATCH: the rows of further patterns can narrow it down,
        // but not widen it.
        let patterns = match.patterns
        if case .any = match, patterns.count > 1 {
            throw DatabaseError.fullTextQueryTooLarge(index: name, limit: dialect.maximumTermsPerMatch)
        }
        if !dialect.isFTS5 { try FullTextRankFunction.register(on: connection) }

        let quotedTable = TableSchema.quote(table.name), quotedIndex = TableSchema.quote(name)
        var selection = ["\(quotedTable).*", "\(dialect.rankSQL(index: name)) AS persistance_rank"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let snippet {
            guard 1...FullTextDialect.maximumSnippetTokens ~= snippet.words else {
                throw DatabaseError.misuse("a snippet has 1 to \(FullTextDialect.maximumSnippetTokens) words, not \(snippet.words)")
            }
            selection.append(dialect.snippetSQL(index: name, column: try position(of: snippet.column)))
            arguments += [snippet.open, snippet.close, snippet.ellipsis, snippet.words]
        }
        var highlightedColumn: Int?
        if let highlight {
            let column = try position(of: highlight.column)
            selection.append(dialect.highlightSQL(index: name, column: column))
            if dialect.isFTS5 {
                arguments += [highlight.open, highlight.close]
            } else {
                selection.append("\(quotedTable).\(TableSchema.quote(highlight.column))")
                highlightedColumn = column
            }
        }
        arguments += patterns
        arguments.append(limit ?? -1)
        let narrowing = patterns.dropFirst().map { _ in
            " AND \(quotedIndex).rowid IN (SELECT rowid FROM \(quotedIndex) WHERE \(quotedIndex) MATCH ?)"
        }
        let sql = "SELECT \(selection.joined(separator: ", ")) FROM \(quotedIndex) "
            + "JOIN \(quotedTable) ON \(quotedTable).rowid = \(quotedIndex).rowid "
            + "WHERE \(quotedIndex) MATCH ?\(narrowing.joined()) ORDER BY persistance_rank LIMIT ?"

        return try table.withRows(of: sql, in: connection, binding: { try $0.bind(StatementArguments(arguments)) }) {
            statement, decoder in
            let extras = selection.count - 1
            var next = statement.columnCount - extras
            let rankColumn = next
            next += 1
            let snippetColumn = snippet == nil ? nil : next
            if snippet != nil { next += 1 }
            let highlightColumn = highlight == nil ? nil : next
            var matches = [FullTextMatch<Element>]()
            while try statement.step() {
                var match = FullTextMatch(
                    record: try decoder.decode(statement), rank: statement.double(at: rankColumn),
                    snippet: snippetColumn.map(statement.string(at:)))
                if let highlight, let highlightColumn {
                    match.highlighted = highlightedColumn.map {
                        FullTextHighlighter.highlight(
                            statement.string(at: highlightColumn + 1), offsets: statement.string(at: highlightColumn),
                            column: $0, open: highlight.open, close: highlight.close)
                    } ?? statement.string(at: highlightColumn)
                }
                matches.append(match)
            }
            return matches
        }
    }

    /// The position of `column` among the indexed columns.
    private func position(of column: String) throws -> Int {
        guard let position = columns.firstIndex(where: { RowColumns.fold($0) == RowColumns.fold(column) }) else {
            throw DatabaseError.invalidFullTextIndex(name, "\"\(column)\" is not one of its columns")
        }
        return position
    }
}
