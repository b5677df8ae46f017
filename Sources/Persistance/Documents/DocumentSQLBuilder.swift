/// Builds the SQL that evaluates predicates and sort orders inside the engine, in the words
/// of a ``DocumentSQLDialect`` (SQLite: over the JSON text of the `body` column, with the
/// JSON functions `json_type`, `json_extract`, `json_each`). Every value is a numbered
/// parameter (`?1`, `?2`… or `$1`, `$2`…; equal values share one), so nothing a user wrote
/// ever appears in the SQL text.
///
/// SQL answers exactly as the Swift evaluator does, or not at all: each condition is 1, 0
/// or NULL, and NULL (SQL's "unknown", which `AND`, `OR` and `NOT` propagate as three-valued
/// logic does) marks the documents SQLite cannot decide exactly, which are then re-checked
/// in Swift. SQL decides alone on plain text (`DocumentSQLBuilder.isPlain`), on numbers
/// (integers exactly, decimals away from the bound), on types, null and missing values.
public struct DocumentSQLBuilder {
    /// The values of the parameters, in order: `arguments[0]` is `?1` (`$1`).
    public private(set) var arguments: [DatabaseValue] = []
    private var parameterIndexes: [ParameterKey: Int] = [:]
    /// The SQL of the JSON text the expressions read.
    let column: String
    /// What comes before a parameter's number: `?` or `$`.
    let placeholderPrefix: String

    /// An SQL condition that is neither true nor false: decided in Swift.
    public static let undecided = "NULL"

    init(column: String = #""body""#, placeholderPrefix: String = "?") {
        self.column = column
        self.placeholderPrefix = placeholderPrefix
    }

    /// The parameter that binds `value` (`?N` or `$N`): the same one for equal values.
    public mutating func parameter(_ value: DatabaseValue) -> String {
        let key = ParameterKey(value)
        if let index = parameterIndexes[key] { return "\(placeholderPrefix)\(index)" }
        arguments.append(value)
        parameterIndexes[key] = arguments.count
        return "\(placeholderPrefix)\(arguments.count)"
    }

    /// The arguments, to bind to the statement.
    var statementArguments: StatementArguments {
        Self.statementArguments(arguments)
    }

    /// `values`, to bind to a statement on a `Connection`.
    static func statementArguments(_ values: [DatabaseValue]) -> StatementArguments {
        StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? })
    }

    /// Whether SQLite compares and matches `text` exactly as Swift does: ASCII without NUL
    /// and without CR (where every byte is one `Character`; CR LF is a single one, and only
    /// ASCII strings are their own canonical form). SQLite compares bytes; Swift compares
    /// `Character`s up to canonical equivalence.
    package static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 != 0 && $0 != 0x0D && $0 < 0x80 }
    }

    /// The SQL condition that `value` (text) is plain, as `isPlain` says: as many bytes as
    /// characters (a NUL ends `length`'s count early) and no CR.
    static func plain(_ value: String) -> String {
        "(length(CAST(\(value) AS BLOB)) = length(\(value)) AND instr(\(value), char(13)) = 0)"
    }

    /// The interval around a decimal operand within which a stored number is left to Swift:
    /// an engine and Swift may read the same decimal text a last digit apart, never by as much.
    package static func decimalBounds(around number: Double) -> (lower: Double, upper: Double) {
        let margin = Swift.max(abs(number) * 1e-12, 1e-300)
        return (number - margin, number + margin)
    }

    /// The field at `path` in SQL, or nil when SQLite cannot reach it exactly as Swift does.
    mutating func field(_ path: DocumentPath) -> DocumentSQLField? {
        guard let jsonPaths = Self.jsonPaths(path) else { return nil }
        let parameters = jsonPaths.map { parameter(.text($0)) }
        func each(_ function: String) -> String {
            let calls = parameters.map { "\(function)(\(column), \($0))" }
            return calls.count == 1 ? calls[0] : "COALESCE(\(calls.joined(separator: ", ")))"
        }
        let lookalikes = Self.equivalentCharacters.filter { ascii, _ in path.components.contains { $0.contains(ascii) } }
        return DocumentSQLField(type: each("json_type"), value: each("json_extract"), lookalikes: lookalikes.map(\.lookalike))
    }

    /// Characters that Swift takes as equal to an ASCII one (their canonical decomposition is
    /// it): a document key spelt with them is found by Swift under the ASCII key, not by SQLite.
    package static let equivalentCharacters: [(ascii: Character, lookalike: Character)] = [
        ("K", "\u{212A}"), (";", "\u{037E}"), ("`", "\u{1FEF}"),
    ]

    /// The most JSON paths one field may need (each component that reads as a number doubles them).
    private static let maximumAlternatives = 8

    /// The JSON paths that together reach `path`: a component that reads as an array index
    /// (as `DocumentPath.value(in:)` reads it) is tried both as a key and as an index; at most
    /// one of them exists in a document. Nil when a key is not plain printable ASCII without
    /// `"` or `\` (SQLite compares keys as raw JSON text, Swift up to canonical equivalence).
    static func jsonPaths(_ path: DocumentPath) -> [String]? {
        var paths = ["$"]
        for component in path.components {
            guard !component.isEmpty,
                component.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            else { return nil }
            var next = paths.map { #"\#($0)."\#(component)""# }
            if let index = Int(component), index >= 0 { next += paths.map { "\($0)[\(index)]" } }
            guard next.count <= maximumAlternatives else { return nil }
            paths = next
        }
        return paths
    }
}

/// What makes two parameters the same: text by its bytes (Swift's `String` equality would
/// merge canonically equivalent texts, such as `K` and the Kelvin sign, which the engine tells
/// apart), any other value by equality.
private enum ParameterKey: Hashable {
    case text([UInt8])
    case other(DatabaseValue)

    init(_ value: DatabaseValue) {
        if case .text(let text) = value { self = .text(Array(text.utf8)) } else { self = .other(value) }
    }
}

/// A document field as SQL expressions over the JSON text.
struct DocumentSQLField {
    /// The field's `json_type`: NULL when missing, else `null`, `true`, `false`, `integer`,
    /// `real`, `text`, `array` or `object`.
    let type: String
    /// The field's `json_extract`: NULL for missing and null, 1 / 0 for booleans, the JSON
    /// text of arrays and objects.
    let value: String
    /// Characters that, anywhere in a document, may make Swift find the field where SQLite
    /// does not (see `DocumentSQLBuilder.field`).
    let lookalikes: [Character]

    /// `condition`, made undecided in documents where the field may be elsewhere for Swift.
    func guarded(_ condition: String, in builder: inout DocumentSQLBuilder) -> String {
        guard !lookalikes.isEmpty else { return condition }
        let column = builder.column
        let hazard = lookalikes.map { "instr(\(column), \(builder.parameter(.text(String($0))))) > 0" }
        return "(CASE WHEN \(hazard.joined(separator: " OR ")) THEN NULL ELSE \(condition) END)"
    }
}
