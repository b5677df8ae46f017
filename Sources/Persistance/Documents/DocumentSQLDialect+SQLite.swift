/// The document store's SQL on SQLite: documents are JSON text in the `body` column, read
/// with the JSON functions (`json_type`, `json_extract`, `json_each`); the insertion
/// position is the `rowid`.
///
/// SQL decides alone on plain text (`DocumentSQLBuilder.isPlain`), on numbers (integers
/// exactly, decimals away from the bound), on types, null and missing values; the rest is
/// NULL and decided in Swift. (SQLite 3.15, as SQLCipher links it, has no JSON functions: the
/// store then evaluates everything in Swift and never asks for these conditions.)
public struct SQLiteDocumentDialect: DocumentSQLDialect {
    /// The SQLite dialect.
    public init() {}

    public var placeholderPrefix: String { "?" }

    /// True where the linked SQLite has the JSON functions.
    public var evaluatesPredicates: Bool { SQLiteEngine.supportsJSON }

    public var createTableSQL: String {
        """
        CREATE TABLE IF NOT EXISTS "persistance_documents"(\
        "collection" TEXT NOT NULL, "id" TEXT NOT NULL, "body" TEXT NOT NULL, UNIQUE("collection", "id"))
        """
    }

    public var insertSQL: String { #"INSERT INTO "persistance_documents"("collection", "id", "body") VALUES (?, ?, ?)"# }

    public var replaceSQL: String { #"UPDATE "persistance_documents" SET "body" = ? WHERE "collection" = ? AND "id" = ?"# }

    public var deleteSQL: String { #"DELETE FROM "persistance_documents" WHERE "collection" = ? AND "id" = ?"# }

    public var deleteAllSQL: String { #"DELETE FROM "persistance_documents" WHERE "collection" = ?"# }

    public func literal(_ value: Bool) -> String { value ? "1" : "0" }

    public func documentsSQL(decision: String, filter: String, order: [String]) -> String {
        "SELECT \"position\", \"id\", \"body\", \"decided\" FROM (\(selection(decision, filter))) WHERE \"decided\" IS NOT 0 ORDER BY "
            + order.map { $0 + ", " }.joined() + "\"position\""
    }

    public func countSQL(decision: String, filter: String) -> String {
        "SELECT \"decided\", \"id\", CASE WHEN \"decided\" IS NULL THEN \"body\" END FROM (\(selection(decision, filter)))"
            + " WHERE \"decided\" IS NOT 0"
    }

    private func selection(_ decision: String, _ filter: String) -> String {
        "SELECT rowid AS \"position\", \"id\", \"body\", \(decision) AS \"decided\" FROM \"persistance_documents\" WHERE \(filter)"
    }

    /// `condition`, left undecided (NULL) in every document whose JSON text holds an escaped
    /// NUL (`\u0000`): SQLite's JSON functions cut such a string at the NUL (so `"a\0b"` would
    /// read as `"a"`), in values, keys and array elements alike, so Swift decides those documents.
    public func decision(_ condition: String, in builder: inout DocumentSQLBuilder) -> String {
        "(CASE WHEN instr(\(builder.column), \(builder.parameter(.text("\\u0000")))) > 0 THEN NULL ELSE \(condition) END)"
    }

    public func comparison(
        _ path: DocumentPath, _ comparison: DocumentPredicate.Comparison, _ operand: JSONValue,
        in builder: inout DocumentSQLBuilder
    ) -> String {
        // (A field is only asked for when it is used: every parameter must appear in the SQL.)
        let ordered = comparison != .equal && comparison != .notEqual
        guard operand.isBindable, !ordered || operand.isNumber || operand.stringValue != nil,
            let field = builder.field(path)
        else { return DocumentSQLBuilder.undecided }
        switch comparison {
        case .equal: return field.guarded(sqlEquality(field, operand, in: &builder), in: &builder)
        case .notEqual: return field.guarded("(NOT \(sqlEquality(field, operand, in: &builder)))", in: &builder)
        default: return field.guarded(sqlOrdering(field, comparison, operand, in: &builder), in: &builder)
        }
    }

    public func membership(_ path: DocumentPath, _ candidates: [JSONValue], in builder: inout DocumentSQLBuilder) -> String {
        guard candidates.allSatisfy(\.isBindable), let field = builder.field(path) else {
            return DocumentSQLBuilder.undecided
        }
        let alternatives = candidates.map { sqlEquality(field, $0, in: &builder) }
        return field.guarded("(\(alternatives.joined(separator: " OR ")))", in: &builder)
    }

    public func isNull(_ path: DocumentPath, in builder: inout DocumentSQLBuilder) -> String {
        guard let field = builder.field(path) else { return DocumentSQLBuilder.undecided }
        return field.guarded(sqlIsNull(field), in: &builder)
    }

    public func textMatch(
        _ path: DocumentPath, _ match: DocumentPredicate.TextMatch, _ text: String, in builder: inout DocumentSQLBuilder
    ) -> String {
        guard let field = builder.field(path) else { return DocumentSQLBuilder.undecided }
        return field.guarded(sqlText(field, match, text, in: &builder), in: &builder)
    }

    /// The type rank, then the value: SQLite orders as Swift does for plain text and for
    /// numbers of up to 2^53.
    public func sortTerms(_ key: DocumentSort, in builder: inout DocumentSQLBuilder) -> [String]? {
        guard let field = builder.field(key.path) else { return nil }
        let direction = key.ascending ? "ASC" : "DESC"
        let rank = "CASE \(field.type) WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2"
            + " WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
        return ["\(rank) \(direction)", "\(field.value) \(direction)"]
    }

    private func sqlIsNull(_ field: DocumentSQLField) -> String {
        "(\(field.type) IS NULL OR \(field.type) = 'null')"
    }

    /// `JSONValue.matches`: numbers by value, booleans, null (missing too), strings, and
    /// arrays and objects when their JSON text is the operand's (else Swift compares them).
    private func sqlEquality(_ field: DocumentSQLField, _ operand: JSONValue, in builder: inout DocumentSQLBuilder) -> String {
        let (type, value) = (field.type, field.value)
        switch operand {
        case .null:
            return sqlIsNull(field)
        case .bool(let flag):
            return "(\(type) IS '\(flag ? "true" : "false")')"
        case .int, .double, .string:
            return sqlScalarComparison(field, "=", operand, in: &builder) { $0.equality($1) }
        case .array(let elements):
            return "(CASE WHEN \(type) IS NOT 'array' THEN 0"
                + " WHEN json_array_length(\(value)) <> \(builder.parameter(.integer(Int64(elements.count)))) THEN 0"
                + " WHEN \(value) = \(builder.parameter(.text(operand.serialized()))) THEN 1 END)"
        case .object(let members):
            return "(CASE WHEN \(type) IS NOT 'object' THEN 0"
                + " WHEN (SELECT count(*) FROM json_each(\(value))) <> \(builder.parameter(.integer(Int64(members.count)))) THEN 0"
                + " WHEN \(value) = \(builder.parameter(.text(operand.serialized()))) THEN 1 END)"
        }
    }

    /// `JSONValue.compared(to:)`: numbers with numbers, strings with strings; any other
    /// type does not match.
    private func sqlOrdering(
        _ field: DocumentSQLField, _ comparison: DocumentPredicate.Comparison, _ operand: JSONValue, in builder: inout DocumentSQLBuilder
    ) -> String {
        sqlScalarComparison(field, comparison.rawValue, operand, in: &builder) { $0.ordering($1, comparison) }
    }

    /// `operator` (`=`, `<`, …) between the field and a number or string operand: integers
    /// exactly, integers against decimals as decimals, stored decimals with `decimal` (see
    /// `DecimalBounds`), plain text by bytes; a field of another type is 0.
    private func sqlScalarComparison(
        _ field: DocumentSQLField, _ operator: String, _ operand: JSONValue, in builder: inout DocumentSQLBuilder,
        decimal: (DecimalBounds, String) -> String
    ) -> String {
        let (type, value) = (field.type, field.value)
        switch operand {
        case .int(let number):
            let real = DecimalBounds(Double(number), in: &builder)
            return "(CASE \(type) WHEN 'integer' THEN \(value) \(`operator`) \(builder.parameter(.integer(number)))"
                + " WHEN 'real' THEN \(decimal(real, value)) ELSE 0 END)"
        case .double(let number):
            let real = DecimalBounds(number, in: &builder)
            return "(CASE \(type) WHEN 'integer' THEN CAST(\(value) AS REAL) \(`operator`) \(builder.parameter(.real(number)))"
                + " WHEN 'real' THEN \(decimal(real, value)) ELSE 0 END)"
        case .string(let string) where DocumentSQLBuilder.isPlain(string):
            return "(CASE WHEN \(type) IS NOT 'text' THEN 0 WHEN \(DocumentSQLBuilder.plain(value))"
                + " THEN \(value) \(`operator`) \(builder.parameter(.text(string))) END)"
        default:  // text that is not plain (`validate()` and the callers leave no other operand)
            return "(CASE WHEN \(type) IS NOT 'text' THEN 0 END)"
        }
    }

    /// `contains`, `beginsWith`, `endsWith` and the `like`s on strings (and `contains` on arrays
    /// of strings), decided in SQL when the text and the string are plain.
    private func sqlText(
        _ field: DocumentSQLField, _ match: DocumentPredicate.TextMatch, _ text: String, in builder: inout DocumentSQLBuilder
    ) -> String {
        let (type, value) = (field.type, field.value)
        let textIsPlain = DocumentSQLBuilder.isPlain(text)
        if match == .contains {
            let inArray = textIsPlain
                ? "CASE WHEN EXISTS (SELECT 1 FROM json_each(\(value)) WHERE \"type\" = 'text' AND \"value\" = \(builder.parameter(.text(text))))"
                    + " THEN 1 WHEN EXISTS (SELECT 1 FROM json_each(\(value)) WHERE \"type\" = 'text' AND NOT \(DocumentSQLBuilder.plain("\"value\""))) THEN NULL ELSE 0 END"
                : "NULL"
            let stringCase = text.isEmpty
                ? "1"
                : textIsPlain
                    ? "CASE WHEN \(DocumentSQLBuilder.plain(value)) THEN instr(\(value), \(builder.parameter(.text(text)))) > 0 END"
                    : "NULL"
            return "(CASE \(type) WHEN 'text' THEN \(stringCase) WHEN 'array' THEN \(inArray) ELSE 0 END)"
        }
        let isLike = match == .like || match == .likeCaseInsensitive
        let glob = isLike ? LikePattern(text, caseInsensitive: match == .likeCaseInsensitive).glob : nil
        guard textIsPlain, !isLike || glob != nil else { return "(CASE WHEN \(type) IS NOT 'text' THEN 0 END)" }
        let length = Int64(text.utf8.count)
        let matched: String
        switch match {
        case .beginsWith:
            matched = "substr(\(value), 1, \(builder.parameter(.integer(length)))) = \(builder.parameter(.text(text)))"
        case .endsWith:
            let count = builder.parameter(.integer(length))
            matched = "(length(\(value)) >= \(count) AND substr(\(value), length(\(value)) - \(count) + 1) = \(builder.parameter(.text(text))))"
        default:
            matched = "\(value) GLOB \(builder.parameter(.text(glob ?? "")))"
        }
        return "(CASE WHEN \(type) IS NOT 'text' THEN 0 WHEN \(DocumentSQLBuilder.plain(value)) THEN \(matched) END)"
    }
}

extension JSONValue {
    /// Whether SQLite can bind the value as it is: a non-finite decimal it cannot.
    fileprivate var isBindable: Bool {
        if case .double(let number) = self { return number.isFinite }
        return true
    }
}

/// A bound around a decimal operand within which a stored decimal is left to Swift: SQLite
/// and Swift may read the same decimal JSON text a last digit apart, never by as much.
private struct DecimalBounds {
    let lower: String
    let upper: String

    init(_ number: Double, in builder: inout DocumentSQLBuilder) {
        let bounds = DocumentSQLBuilder.decimalBounds(around: number)
        lower = builder.parameter(.real(bounds.lower))
        upper = builder.parameter(.real(bounds.upper))
    }

    /// 0 where `value` is clearly another number; NULL near it.
    func equality(_ value: String) -> String {
        "(CASE WHEN \(value) < \(lower) OR \(value) > \(upper) THEN 0 END)"
    }

    /// 1 or 0 where `value` is clearly below or above; NULL near it.
    func ordering(_ value: String, _ comparison: DocumentPredicate.Comparison) -> String {
        switch comparison {
        case .less, .lessOrEqual: "(CASE WHEN \(value) < \(lower) THEN 1 WHEN \(value) > \(upper) THEN 0 END)"
        default: "(CASE WHEN \(value) > \(upper) THEN 1 WHEN \(value) < \(lower) THEN 0 END)"
        }
    }
}
