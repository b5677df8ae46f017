import Foundation
import Persistance

/// Renders template pieces into SQL text and the values bound to its `?` parameters.
///
/// Values reach the SQL text only through `@{…}`: as quoted literals, or with `no ""` as the
/// caller's raw text (`n desc` for an order clause), which may change the statement; a
/// statement that then holds more than one SQL statement does not run (``checkedSQL()``).
struct DAOStatementRenderer {
    /// Why rendering stopped early.
    enum Stop {
        /// `onVoid="ignoreAfter"`: run the SQL rendered so far.
        case ignoreAfter
        /// `onVoid="quit"`: do not run the statement.
        case quit
    }

    let tableName: String?
    let crypt: DAOFieldCrypt
    private(set) var sql = ""
    private(set) var arguments: [DatabaseValue] = []
    private(set) var stop: Stop?
    /// Where `@{x no ""}` wrote raw text into the SQL, if it did.
    private var rawTextLocation: DAOSourceLocation?

    init(tableName: String?, crypt: DAOFieldCrypt) {
        self.tableName = tableName
        self.crypt = crypt
    }

    /// Whether there is a statement to run.
    var hasStatement: Bool {
        stop != .quit && sql.contains { !$0.isWhitespace }
    }

    mutating func render(_ pieces: [SQLTemplate], in scope: DAOScope) throws {
        for piece in pieces {
            guard stop == nil else { return }
            try render(piece, in: scope)
        }
    }

    private mutating func render(_ piece: SQLTemplate, in scope: DAOScope) throws {
        switch piece {
        case .text(let text):
            sql += text
        case .tableName(let location):
            guard let tableName else {
                throw DAOError(.missingTableName, "${T} needs a table name: set tableName in the module or on the DAO", at: location)
            }
            sql += tableName
        case .bound(let path, let orEmpty, let location):
            var value = try scope.storableValue(path, crypt: crypt, at: location)
            if orEmpty, value == .null { value = .text("") }
            sql += "?"
            arguments.append(value)
        case .inlined(let path, let style, let alreadyQuoted, let location):
            var value = try scope.storableValue(path, crypt: crypt, at: location)
            if style == .orEmpty, value == .null { value = .text("") }
            if style == .bare, rawTextLocation == nil { rawTextLocation = location }
            sql += try Self.literal(value, style: style, alreadyQuoted: alreadyQuoted, at: location)
        case .conditional(let condition, let expected, let body, let location):
            if try DAOExpressionEvaluator.isTrue(condition, in: scope, at: location) == expected {
                try render(body, in: scope)
            }
        case .choose(let branches, let otherwise):
            for branch in branches {
                if try DAOExpressionEvaluator.isTrue(branch.condition, in: scope, at: branch.location) == branch.expected {
                    try render(branch.body, in: scope)
                    return
                }
            }
            try render(otherwise, in: scope)
        case .loop(let loop, let body, let location):
            let collection = try scope.resolve(loop.collection, at: location).value
            var elements = try DAOMethodRunner.elements(of: collection, named: loop.collection.description, at: location)
            if loop.reverse { elements.reverse() }
            guard !elements.isEmpty else { return }
            sql += loop.open
            for (index, element) in elements.enumerated() {
                if index > 0 { sql += loop.separator }
                try render(body, in: scope.binding(loop.item, to: element))
                guard stop == nil else { return }
            }
            sql += loop.close
        case .trim(let trim, let body):
            let startOffset = sql.utf8.count
            try render(body, in: scope)
            if stop == .quit { return }
            let start = sql.utf8.index(sql.startIndex, offsetBy: startOffset)
            let inner = Self.trimmed(String(sql[start...]), trim)
            sql.removeSubrange(start...)
            if inner.isEmpty {
                switch trim.onVoid {
                case .none: break
                case .ignoreAfter: stop = .ignoreAfter
                case .quit: stop = .quit
                }
                return
            }
            sql += " \(trim.prefix) \(inner) \(trim.suffix) "
        }
    }

    /// The rendered SQL, checked to be one statement when `@{x no ""}` wrote raw text into it.
    /// - Throws: `multipleStatements` when it holds more than one.
    func checkedSQL() throws -> String {
        if let rawTextLocation, DAOSQLText.holdsMoreThanOneStatement(sql) {
            throw DAOError(
                .multipleStatements, "the statement holds more than one SQL statement once @{… no \"\"} is written in; it does not run",
                at: rawTextLocation)
        }
        return sql
    }

    /// The content of a `trim` without its leading and trailing overrides.
    static func trimmed(_ content: String, _ trim: SQLTemplate.Trim) -> String {
        var text = Substring(content.trimmingCharacters(in: .whitespacesAndNewlines))
        if let override = trim.prefixOverrides.first(where: { startsWord(text, $0) }) {
            text = text.dropFirst(override.count)
        }
        if let override = trim.suffixOverrides.first(where: { endsWord(text, $0) }) {
            text = text.dropLast(override.count)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character == "_" || character.isLetter || character.isNumber
    }

    /// Whether `text` starts with `override` (ignoring case) not followed by more of the same word.
    private static func startsWord(_ text: Substring, _ override: String) -> Bool {
        guard text.count >= override.count, text.prefix(override.count).lowercased() == override.lowercased() else { return false }
        return !(isWordCharacter(override.last) && isWordCharacter(text.dropFirst(override.count).first))
    }

    /// Whether `text` ends with `override` (ignoring case) not preceded by more of the same word.
    private static func endsWord(_ text: Substring, _ override: String) -> Bool {
        guard text.count >= override.count, text.suffix(override.count).lowercased() == override.lowercased() else { return false }
        return !(isWordCharacter(override.first) && isWordCharacter(text.dropLast(override.count).last))
    }

    /// `name` as a quoted SQL identifier.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `value` as SQL text for `@{…}`.
    static func literal(
        _ value: DatabaseValue, style: SQLTemplate.InlineStyle, alreadyQuoted: Bool, at location: DAOSourceLocation
    ) throws -> String {
        switch value {
        case .null:
            return "NULL"
        case .integer(let number):
            return String(number)
        case .real(let number):
            guard number.isFinite else {
                throw DAOError(.invalidCall, "@{…} cannot write a non-finite number into SQL", at: location)
            }
            return "\(number)"
        case .blob(let data):
            return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        case .text(let text):
            guard !text.contains("\u{0}") else {
                throw DAOError(.invalidCall, "@{…} cannot write a string with a NUL character into SQL", at: location)
            }
            if style == .bare { return text }
            let escaped = text.replacingOccurrences(of: "'", with: "''")
            return alreadyQuoted ? escaped : "'\(escaped)'"
        }
    }
}
