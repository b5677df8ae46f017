import Foundation

/// Parses the SQL text of a module into template pieces: literal SQL, `#{…}` and `@{…}`
/// references, `${…}` table name / constants / fragments, and `%{'template', a, b}`
/// column-list expansions.
struct SQLTextParser {
    /// Answers `${name}` for a name other than `T`/`t`: a constant's text or a fragment's pieces.
    let substitute: (String, DAOSourceLocation) throws -> [SQLTemplate]

    /// The pieces of `text`, which starts at `location`.
    func parse(_ text: String, at location: DAOSourceLocation) throws -> [SQLTemplate] {
        var pieces = [SQLTemplate]()
        var literal = ""
        // Whether the text so far opened a '…' string that is not closed: `@{x}` in it is not quoted again.
        var isInsideQuotes = false
        var index = text.startIndex
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            guard "#@$%".contains(character), next < text.endIndex, text[next] == "{" else {
                if character == "'" { isInsideQuotes.toggle() }
                literal.append(character)
                index = next
                continue
            }
            let here = Self.location(of: index, in: text, startingAt: location)
            if character == "%" {
                let (expansion, end) = try Self.expandColumnTemplate(text, from: text.index(after: next), at: here)
                flush()
                pieces += try parse(expansion, at: here)
                index = end
                continue
            }
            guard let close = text[next...].firstIndex(of: "}") else {
                throw DAOError(.invalidModule, "\"\(character){\" is never closed", at: here)
            }
            let content = text[text.index(after: next)..<close].trimmingCharacters(in: .whitespacesAndNewlines)
            let after = text.index(after: close)
            switch character {
            case "$":
                guard DAOPath.isIdentifier(content) else {
                    throw DAOError(.invalidModule, "\"${\(content)}\" does not name a constant or fragment", at: here)
                }
                flush()
                pieces += content == "T" || content == "t" ? [.tableName(here)] : try substitute(content, here)
            case "#":
                let (path, style) = try Self.reference(content, allowsBare: false, at: here)
                flush()
                pieces.append(.bound(path, orEmpty: style == .orEmpty, here))
            default:
                let (path, style) = try Self.reference(content, allowsBare: true, at: here)
                flush()
                pieces.append(.inlined(path, style, alreadyQuoted: isInsideQuotes, here))
            }
            index = after
        }
        flush()
        return pieces
    }

    /// The path and style of `x`, `x or ""` or `x no ""`.
    private static func reference(
        _ content: String, allowsBare: Bool, at location: DAOSourceLocation
    ) throws -> (DAOPath, SQLTemplate.InlineStyle) {
        var body = Substring(content)
        var style = SQLTemplate.InlineStyle.literal
        let words = content.split(whereSeparator: \.isWhitespace)
        if words.count == 3, words[2] == "\"\"", words[1] == "or" || (allowsBare && words[1] == "no") {
            style = words[1] == "or" ? .orEmpty : .bare
            body = words[0]
        }
        guard let path = DAOPath(parsing: body) else {
            throw DAOError(.invalidModule, "\"\(content)\" is not a reference (write name, name.property, name or \"\"\(allowsBare ? " or name no \"\"" : ""))", at: location)
        }
        return (path, style)
    }

    /// Expands `'template', a, b}` (after `%{`): the template once per column, `*` replaced
    /// by the column's name, joined with ", ". Returns the expansion and the index after `}`.
    private static func expandColumnTemplate(
        _ text: String, from start: String.Index, at location: DAOSourceLocation
    ) throws -> (String, String.Index) {
        var index = start
        while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
        guard index < text.endIndex, text[index] == "'" else {
            throw DAOError(.invalidModule, "\"%{\" must start with a quoted template, as in %{'#{model.*}', a, b}", at: location)
        }
        var template = ""
        index = text.index(after: index)
        var closed = false
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == "\\", index < text.endIndex, text[index] == "'" {
                template.append("'")
                index = text.index(after: index)
            } else if character == "'" {
                closed = true
                break
            } else {
                template.append(character)
            }
        }
        guard closed, let close = text[index...].firstIndex(of: "}") else {
            throw DAOError(.invalidModule, "\"%{\" is never closed", at: location)
        }
        let columns = text[index..<close].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard columns.first == "", columns.count >= 2, columns.dropFirst().allSatisfy(DAOPath.isIdentifier) else {
            throw DAOError(.invalidModule, "\"%{\" needs a list of column names after its template", at: location)
        }
        let expansion = columns.dropFirst().map { template.replacingOccurrences(of: "*", with: $0) }.joined(separator: ", ")
        return (expansion, text.index(after: close))
    }

    /// The line and column of `index` in `text`, which starts at `start`.
    static func location(of index: String.Index, in text: String, startingAt start: DAOSourceLocation) -> DAOSourceLocation {
        var location = start
        for character in text[..<index] {
            if character == "\n" {
                location.line += 1
                location.column = 1
            } else {
                location.column += 1
            }
        }
        return location
    }
}
