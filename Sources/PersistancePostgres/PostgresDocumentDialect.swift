#if PostgreSQL
import Persistance

/// The document store's SQL on PostgreSQL (`DocumentSQLDialect`): each document is one row
/// of `persistance_documents` holding its JSON text exactly as written (`body`, what is read
/// back, so a document reads back as it does from SQLite) and the same document as `jsonb`
/// (`content`, what predicates and sort keys read), in insertion order (`position`).
///
/// The rules, which give the documents SQLite gives, in the same order:
/// - Fields: `jsonb_extract_path(content, $1, $2, …)`, each key a text parameter; a key made of
///   digits also indexes arrays, as `DocumentPath` reads it. A path is left to Swift when a key
///   is not printable ASCII (Swift compares keys up to canonical equivalence, PostgreSQL by
///   bytes) or starts with a sign or a space (PostgreSQL reads `-1` as the last element);
///   conditions on a path with `K`, `;` or a backtick are left to Swift in documents holding their
///   Unicode lookalikes.
/// - Documents whose text holds `\u0000` have no `content` (`jsonb` refuses it): Swift decides them.
/// - Type tests (`jsonb_typeof`) guard every comparison, so values of another type are false
///   and never raise; missing and null are null.
/// - Numbers compare as `numeric` (every operand bound as its text): equal `numeric`s are equal
///   for Swift too; values clearly apart (by more than 10^-12 of the operand) are decided; so
///   are integral values within ±2^53 against an integral operand; the rest (a last-digit
///   neighbour, integers beyond 2^53 against decimals) is left to Swift.
/// - Strings are decided when the stored one and the operand are plain ASCII without CR, by
///   bytes (`COLLATE "C"`); `contains` on arrays uses `@>`, and is left to Swift when the
///   array holds a string that is not plain. `LIKE` patterns become SQL `LIKE` patterns; the
///   case-insensitive one compares lowercased ASCII.
/// - Arrays and objects are equal when their `jsonb`s are; other ones of the same length
///   are left to Swift.
/// - Sorting: type rank (missing and null, booleans, numbers, strings, arrays, objects), then
///   numbers by `numeric` value, then booleans and strings by bytes; arrays and objects keep
///   insertion order within their rank. The store checks the order in Swift and sorts again
///   when it differs from `DocumentSort`'s (arrays, objects, non-ASCII text, numbers beyond
///   2^53).
public struct PostgresDocumentDialect: DocumentSQLDialect {
    /// The PostgreSQL dialect.
    public init() {}

    public var placeholderPrefix: String { "$" }

    public var evaluatesPredicates: Bool { true }

    public var createTableSQL: String {
        """
        CREATE TABLE IF NOT EXISTS "persistance_documents"(\
        "position" bigint GENERATED ALWAYS AS IDENTITY, "collection" text NOT NULL, "id" text NOT NULL, \
        "body" text NOT NULL, "content" jsonb, UNIQUE("collection", "id"))
        """
    }

    public var insertSQL: String {
        #"INSERT INTO "persistance_documents"("collection", "id", "body", "content") VALUES ($1::text, $2::text, $3::text, "#
            + Self.content(of: "$3") + ")"
    }

    public var replaceSQL: String {
        #"UPDATE "persistance_documents" SET "body" = $1::text, "content" = "# + Self.content(of: "$1")
            + #" WHERE "collection" = $2::text AND "id" = $3::text"#
    }

    public var deleteSQL: String { #"DELETE FROM "persistance_documents" WHERE "collection" = $1::text AND "id" = $2::text"# }

    public var deleteAllSQL: String { #"DELETE FROM "persistance_documents" WHERE "collection" = $1::text"# }

    /// The `jsonb` of the JSON text `parameter`, or NULL when it holds an escaped NUL.
    private static func content(of parameter: String) -> String {
        #"CASE WHEN strpos(\#(parameter)::text, '\u0000') = 0 THEN \#(parameter)::text::jsonb END"#
    }

    public func literal(_ value: Bool) -> String { value ? "true" : "false" }

    public func documentsSQL(decision: String, filter: String, order: [String]) -> String {
        #"SELECT "position", "id", "body", CAST("decided" AS integer) FROM \#(selection(decision, filter))"#
            + #" WHERE "decided" IS NOT FALSE ORDER BY "# + order.map { $0 + ", " }.joined() + #""position""#
    }

    public func countSQL(decision: String, filter: String) -> String {
        #"SELECT CAST("decided" AS integer), "id", CASE WHEN "decided" IS NULL THEN "body" END"#
            + #" FROM \#(selection(decision, filter)) WHERE "decided" IS NOT FALSE"#
    }

    private func selection(_ decision: String, _ filter: String) -> String {
        #"(SELECT "position", "id", "body", "content", (\#(decision))::boolean AS "decided""#
            + #" FROM "persistance_documents" WHERE \#(filter)) AS "documents""#
    }

    public func decision(_ condition: String, in builder: inout DocumentSQLBuilder) -> String {
        #"(CASE WHEN "content" IS NULL THEN NULL ELSE \#(condition) END)"#
    }

    public func comparison(
        _ path: DocumentPath, _ comparison: DocumentPredicate.Comparison, _ operand: JSONValue,
        in builder: inout DocumentSQLBuilder
    ) -> String {
        guard let field = field(path, in: &builder) else { return DocumentSQLBuilder.undecided }
        let condition: String
        switch comparison {
        case .equal: condition = equality(field, operand, in: &builder)
        case .notEqual: condition = "(NOT \(equality(field, operand, in: &builder)))"
        default: condition = ordering(field, comparison, operand, in: &builder)
        }
        return field.guarded(condition, in: &builder)
    }

    public func membership(_ path: DocumentPath, _ candidates: [JSONValue], in builder: inout DocumentSQLBuilder) -> String {
        guard let field = field(path, in: &builder) else { return DocumentSQLBuilder.undecided }
        let alternatives = candidates.map { equality(field, $0, in: &builder) }
        return field.guarded("(\(alternatives.joined(separator: " OR ")))", in: &builder)
    }

    public func isNull(_ path: DocumentPath, in builder: inout DocumentSQLBuilder) -> String {
        guard let field = field(path, in: &builder) else { return DocumentSQLBuilder.undecided }
        return field.guarded(field.isNull, in: &builder)
    }

    public func textMatch(
        _ path: DocumentPath, _ match: DocumentPredicate.TextMatch, _ text: String, in builder: inout DocumentSQLBuilder
    ) -> String {
        guard let field = field(path, in: &builder) else { return DocumentSQLBuilder.undecided }
        return field.guarded(self.text(field, match, text, in: &builder), in: &builder)
    }

    public func sortTerms(_ key: DocumentSort, in builder: inout DocumentSQLBuilder) -> [String]? {
        guard let field = field(key.path, in: &builder) else { return nil }
        let direction = key.ascending ? "ASC" : "DESC"
        let rank = "CASE \(field.type) WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3"
            + " WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
        return [
            "\(rank) \(direction)",
            "CASE WHEN \(field.type) = 'number' THEN (\(field.text))::numeric END \(direction)",
            "CASE WHEN \(field.type) IN ('string', 'boolean') THEN \(field.text) END COLLATE \"C\" \(direction)",
        ]
    }

    // MARK: Fields

    /// A document field as SQL over the `content` column.
    private struct Field {
        /// The field's `jsonb`: NULL when missing, `'null'` for null.
        let json: String
        /// The field's text: a string's characters, a number's digits, `true` or `false`; NULL
        /// when missing or null.
        let text: String
        /// The field's `jsonb_typeof`: NULL when missing, else `null`, `boolean`, `number`,
        /// `string`, `array` or `object`.
        var type: String { "jsonb_typeof(\(json))" }
        /// Lookalikes of the path's characters that, anywhere in a document, may make Swift
        /// find the field where PostgreSQL does not.
        let lookalikes: [Character]

        /// Missing or null.
        var isNull: String { "(\(json) IS NULL OR \(type) = 'null')" }

        /// `condition`, made undecided in documents where the field may be elsewhere for Swift.
        func guarded(_ condition: String, in builder: inout DocumentSQLBuilder) -> String {
            guard !lookalikes.isEmpty else { return condition }
            let hazards = lookalikes.map { "strpos(\"body\", \(builder.parameter(.text(String($0))))::text) > 0" }
            return "(CASE WHEN \(hazards.joined(separator: " OR ")) THEN NULL ELSE \(condition) END)"
        }
    }

    /// The field at `path`, or nil when PostgreSQL cannot reach it exactly as Swift does.
    private func field(_ path: DocumentPath, in builder: inout DocumentSQLBuilder) -> Field? {
        guard path.components.allSatisfy(Self.isReachableKey) else { return nil }
        let keys = path.components.map { "\(builder.parameter(.text($0)))::text" }.joined(separator: ", ")
        let lookalikes = DocumentSQLBuilder.equivalentCharacters.filter { ascii, _ in path.components.contains { $0.contains(ascii) } }
        return Field(
            json: "jsonb_extract_path(\"content\", \(keys))", text: "jsonb_extract_path_text(\"content\", \(keys))",
            lookalikes: lookalikes.map(\.lookalike))
    }

    /// Whether PostgreSQL finds `key` where Swift does: printable ASCII, not empty, and not
    /// starting with a sign or a space (which PostgreSQL, not Swift, skips in an array index).
    private static func isReachableKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, !" +-".utf8.contains(first) else { return false }
        return key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    // MARK: Conditions

    /// A text parameter.
    private func text(_ value: String, in builder: inout DocumentSQLBuilder) -> String {
        "\(builder.parameter(.text(value)))::text"
    }

    /// Whether the SQL text `value` is plain (as `DocumentSQLBuilder.isPlain` says): one byte
    /// per character, and no CR (`content` holds no NUL).
    private func plain(_ value: String) -> String {
        "(octet_length(\(value)) = char_length(\(value)) AND strpos(\(value), chr(13)) = 0)"
    }

    /// `JSONValue.matches`: null (missing too), booleans, numbers by value, plain strings,
    /// arrays and objects equal as `jsonb` (others of the same size are left to Swift).
    private func equality(_ field: Field, _ operand: JSONValue, in builder: inout DocumentSQLBuilder) -> String {
        switch operand {
        case .null:
            return field.isNull
        case .bool(let flag):
            return "(\(field.json) IS NOT NULL AND \(field.json) = '\(flag)'::jsonb)"
        case .int, .double:
            return numeric(field, .equal, operand, in: &builder)
        case .string(let string):
            guard DocumentSQLBuilder.isPlain(string) else { return "(CASE WHEN \(field.type) IS DISTINCT FROM 'string' THEN false END)" }
            return "(CASE WHEN \(field.type) IS DISTINCT FROM 'string' THEN false"
                + " WHEN \(plain(field.text)) THEN \(field.text) = \(text(string, in: &builder)) END)"
        case .array(let elements):
            let size = "jsonb_array_length(\(field.json))"
            return container(field, "array", size: size, count: elements.count, operand, in: &builder)
        case .object(let members):
            let size = "(SELECT count(*) FROM jsonb_object_keys(\(field.json)))"
            return container(field, "object", size: size, count: members.count, operand, in: &builder)
        }
    }

    /// An array or object operand: another type or size is false, an equal `jsonb` true.
    private func container(
        _ field: Field, _ type: String, size: String, count: Int, _ operand: JSONValue, in builder: inout DocumentSQLBuilder
    ) -> String {
        let json = operand.jsonbText
        let equal = json.map { " WHEN \(field.json) = \(text($0, in: &builder))::jsonb THEN true" } ?? ""
        return "(CASE WHEN \(field.type) IS DISTINCT FROM '\(type)' THEN false"
            + " WHEN \(size) <> \(text(String(count), in: &builder))::bigint THEN false\(equal) END)"
    }

    /// `JSONValue.compared(to:)`: numbers with numbers, plain strings with plain strings.
    private func ordering(
        _ field: Field, _ comparison: DocumentPredicate.Comparison, _ operand: JSONValue, in builder: inout DocumentSQLBuilder
    ) -> String {
        guard case .string(let string) = operand else { return numeric(field, comparison, operand, in: &builder) }
        guard DocumentSQLBuilder.isPlain(string) else { return "(CASE WHEN \(field.type) IS DISTINCT FROM 'string' THEN false END)" }
        return "(CASE WHEN \(field.type) IS DISTINCT FROM 'string' THEN false WHEN \(plain(field.text))"
            + " THEN \(field.text) \(comparison.sqlOperator) \(text(string, in: &builder)) COLLATE \"C\" END)"
    }

    /// `comparison` between the field and a number, as `numeric`s: decided where Swift's
    /// `Double`s (or exact integers) must agree, NULL near the operand.
    private func numeric(
        _ field: Field, _ comparison: DocumentPredicate.Comparison, _ operand: JSONValue, in builder: inout DocumentSQLBuilder
    ) -> String {
        guard let number = operand.doubleValue, number.isFinite else { return DocumentSQLBuilder.undecided }
        let value = "(\(field.text))::numeric"
        let exact: String
        switch operand {
        case .int(let integer): exact = String(integer)
        default: exact = "\(number)"
        }
        let operandSQL = "\(text(exact, in: &builder))::numeric"
        let isEqual = [.equal, .lessOrEqual, .greaterOrEqual].contains(comparison)
        var cases = "CASE WHEN \(field.type) IS DISTINCT FROM 'number' THEN false WHEN \(value) = \(operandSQL) THEN \(isEqual)"
        if operand.isExactInteger {
            cases += " WHEN \(value) = trunc(\(value)) AND abs(\(value)) <= \(Self.exactIntegerLimit)"
                + " THEN \(value) \(comparison.sqlOperator) \(operandSQL)"
        }
        let bounds = DocumentSQLBuilder.decimalBounds(around: number)
        let below = comparison == .less || comparison == .lessOrEqual
        let above = comparison == .greater || comparison == .greaterOrEqual
        if bounds.lower.isFinite {
            cases += " WHEN \(value) < \(text("\(bounds.lower)", in: &builder))::numeric THEN \(below)"
        }
        if bounds.upper.isFinite {
            cases += " WHEN \(value) > \(text("\(bounds.upper)", in: &builder))::numeric THEN \(above)"
        }
        return "(\(cases) END)"
    }

    /// `contains`, `beginsWith`, `endsWith` and the `like`s on plain strings, and `contains`
    /// on arrays of strings.
    private func text(
        _ field: Field, _ match: DocumentPredicate.TextMatch, _ text: String, in builder: inout DocumentSQLBuilder
    ) -> String {
        let textIsPlain = DocumentSQLBuilder.isPlain(text)
        let value = field.text
        if match == .contains {
            let nonPlainElement = "EXISTS (SELECT 1 FROM jsonb_array_elements(\(field.json)) AS \"element\""
                + " WHERE jsonb_typeof(\"element\") = 'string' AND NOT \(plain("(\"element\" #>> '{}')")))"
            let inArray = textIsPlain
                ? "CASE WHEN \(field.json) @> jsonb_build_array(\(self.text(text, in: &builder))) THEN true"
                    + " WHEN \(nonPlainElement) THEN NULL ELSE false END"
                : "NULL"
            let inString = text.isEmpty
                ? "true"
                : textIsPlain ? "CASE WHEN \(plain(value)) THEN strpos(\(value), \(self.text(text, in: &builder))) > 0 END" : "NULL"
            return "(CASE \(field.type) WHEN 'string' THEN \(inString) WHEN 'array' THEN \(inArray) ELSE false END)"
        }
        guard textIsPlain else { return "(CASE WHEN \(field.type) IS DISTINCT FROM 'string' THEN false END)" }
        let matched: String
        switch match {
        case .beginsWith:
            matched = "starts_with(\(value), \(self.text(text, in: &builder)))"
        case .endsWith:
            let suffix = self.text(text, in: &builder)
            matched = "right(\(value), char_length(\(suffix))) = \(suffix)"
        case .likeCaseInsensitive:
            let pattern = LikePattern(text, caseInsensitive: true).likePattern
            matched = "lower(\(value) COLLATE \"C\") LIKE \(self.text(pattern, in: &builder))"
        default:
            matched = "\(value) LIKE \(self.text(LikePattern(text, caseInsensitive: false).likePattern, in: &builder))"
        }
        return "(CASE WHEN \(field.type) IS DISTINCT FROM 'string' THEN false WHEN \(plain(value)) THEN \(matched) END)"
    }

    /// The largest integer every `Double` between it and its negation holds exactly: 2^53.
    fileprivate static let exactIntegerLimit: Int64 = 1 << 53
}

extension PostgresTransaction {
    /// PostgreSQL's document SQL: ``PostgresDocumentDialect``.
    public var documentDialect: any DocumentSQLDialect { PostgresDocumentDialect() }
}

extension DocumentPredicate.Comparison {
    /// The SQL operator.
    fileprivate var sqlOperator: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        default: rawValue
        }
    }
}

extension JSONValue {
    /// The value's JSON text for a `jsonb` cast, or nil when `jsonb` refuses it (a string or
    /// key holding NUL) or it holds a non-finite number, which has no JSON text.
    fileprivate var jsonbText: String? {
        guard isFinite else { return nil }
        let text = serialized()
        return text.contains("\\u0000") ? nil : text
    }

    /// Whether the value is an integer that every `Double` holds exactly (within ±2^53).
    fileprivate var isExactInteger: Bool {
        switch self {
        case .int(let integer): integer.magnitude <= PostgresDocumentDialect.exactIntegerLimit.magnitude
        case .double(let number): number.rounded() == number && abs(number) <= Double(PostgresDocumentDialect.exactIntegerLimit)
        default: false
        }
    }

    /// Whether every number in the value is finite.
    private var isFinite: Bool {
        switch self {
        case .double(let number): number.isFinite
        case .array(let elements): elements.allSatisfy(\.isFinite)
        case .object(let members): members.values.allSatisfy(\.isFinite)
        default: true
        }
    }
}
#endif
