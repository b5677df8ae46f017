import Persistance

/// A statement whose SQL text depends on nothing but the table name: plain SQL, `${T}` and
/// `#{…}` parameters, without `@{…}`, `if`, `choose`, `foreach`, `where`, `set` or `trim`.
/// Found when the module loads; a DAO renders its SQL once per table name and each call only
/// binds the parameters, in order, from its arguments.
struct DAOStaticStatement: Sendable {
    /// A `#{…}` of the statement, in the order of its `?`.
    struct Parameter: Sendable {
        var path: DAOPath
        var orEmpty: Bool
        var location: DAOSourceLocation

        /// The value bound for this parameter in `scope` (an encrypted field encrypted).
        func value(in scope: DAOScope, crypt: DAOFieldCrypt) throws -> DatabaseValue {
            let value = try scope.storableValue(path, crypt: crypt, at: location)
            return orEmpty && value == .null ? .text("") : value
        }
    }

    /// The SQL text before, between and after the `${T}`s.
    private let textAroundTableNames: [String]
    /// The parameters, in order.
    let parameters: [Parameter]

    /// The static statement of `pieces`; nil when they render differently from call to call,
    /// or to nothing.
    init?(_ pieces: [SQLTemplate]) {
        var texts = [""]
        var parameters = [Parameter]()
        for piece in pieces {
            switch piece {
            case .text(let text):
                texts[texts.count - 1] += text
            case .tableName:
                texts.append("")
            case .bound(let path, let orEmpty, let location):
                texts[texts.count - 1] += "?"
                parameters.append(Parameter(path: path, orEmpty: orEmpty, location: location))
            case .inlined, .conditional, .choose, .loop, .trim:
                return nil
            }
        }
        guard texts.contains(where: { text in text.contains { !$0.isWhitespace } }) else { return nil }
        textAroundTableNames = texts
        self.parameters = parameters
    }

    /// The SQL for the table `tableName`; nil when the statement names the table and there is
    /// none (rendering it reports the error).
    func sql(tableName: String?) -> String? {
        guard textAroundTableNames.count > 1 else { return textAroundTableNames[0] }
        guard let tableName else { return nil }
        return textAroundTableNames.joined(separator: tableName)
    }
}
