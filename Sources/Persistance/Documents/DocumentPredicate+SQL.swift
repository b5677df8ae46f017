extension DocumentPredicate {
    /// `sqlCondition(in:)`, left undecided (NULL) in every document whose JSON text holds an
    /// escaped NUL (`\u0000`): SQLite's JSON functions cut such a string at the NUL (so
    /// `"a\0b"` would read as `"a"`), in values, keys and array elements alike, so Swift
    /// decides those documents. The predicate must be valid.
    func sqlDecision(in builder: inout DocumentSQLBuilder) -> String {
        let condition = sqlCondition(in: &builder)
        return "(CASE WHEN instr(\(builder.column), \(builder.parameter(.text("\\u0000")))) > 0 THEN NULL ELSE \(condition) END)"
    }

    /// The predicate as an SQL condition over a document's JSON text: 1 where `matches(_:)`
    /// is true, 0 where it is false, NULL where SQLite cannot tell exactly (the caller then
    /// asks `matches(_:)`). The predicate must be valid.
    func sqlCondition(in builder: inout DocumentSQLBuilder) -> String {
        switch self {
        case .compare(let path, let comparison, let operand):
            // (A field is only asked for when it is used: every parameter must appear in the SQL.)
            let ordered = comparison != .equal && comparison != .notEqual
            guard operand.isBindable, !ordered || operand.isNumber || operand.stringValue != nil,
                let field = builder.field(path)
            else { return DocumentSQLBuilder.undecided }
            switch comparison {
            case .equal: return field.guarded(Self.sqlEquality(field, operand, in: &builder), in: &builder)
            case .notEqual: return field.guarded("(NOT \(Self.sqlEquality(field, operand, in: &builder)))", in: &builder)
            default: return field.guarded(Self.sqlOrdering(field, comparison, operand, in: &builder), in: &builder)
            }
        case .isIn(let path, let candidates):
            guard !candidates.isEmpty else { return "0" }
            guard candidates.allSatisfy(\.isBindable), let field = builder.field(path) else {
                return DocumentSQLBuilder.undecided
            }
            let alternatives = candidates.map { Self.sqlEquality(field, $0, in: &builder) }
            return field.guarded("(\(alternatives.joined(separator: " OR ")))", in: &builder)
        case .isNil(let path):
            guard let field = builder.field(path) else { return DocumentSQLBuilder.undecided }
            return field.guarded(Self.sqlIsNull(field), in: &builder)
        case .text(let path, let match, let text):
            guard let field = builder.field(path) else { return DocumentSQLBuilder.undecided }
            return field.guarded(Self.sqlText(field, match, text, in: &builder), in: &builder)
        case .and(let predicates):
            guard !predicates.isEmpty else { return "1" }
            return "(" + predicates.map { $0.sqlCondition(in: &builder) }.joined(separator: " AND ") + ")"
        case .or(let predicates):
            guard !predicates.isEmpty else { return "0" }
            return "(" + predicates.map { $0.sqlCondition(in: &builder) }.joined(separator: " OR ") + ")"
        case .not(let predicate):
            return "(NOT \(predicate.sqlCondition(in: &builder)))"
        }
    }

    private static func sqlIsNull(_ field: DocumentSQLField) -> String {
        "(\(field.type) IS NULL OR \(field.type) = 'null')"
    }

    /// `JSONValue.matches`: numbers by value, booleans, null (missing too), strings, and
    /// arrays and objects when their JSON text is the operand's (else Swift compares them).
    private static func sqlEquality(_ field: DocumentSQLField, _ operand: JSONValue, in builder: inout DocumentSQLBuilder) -> String {
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
    private static func sqlOrdering(
        _ field: DocumentSQLField, _ comparison: Comparison, _ operand: JSONValue, in builder: inout DocumentSQLBuilder
    ) -> String {
        sqlScalarComparison(field, comparison.rawValue, operand, in: &builder) { $0.ordering($1, comparison) }
    }

    /// `operator` (`=`, `<`, …) between the field and a number or string operand: integers
    /// exactly, integers against decimals as decimals, stored decimals with `decimal` (see
    /// `DecimalBounds`), plain text by bytes; a field of another type is 0.
    private static func sqlScalarComparison(
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
    private static func sqlText(
        _ field: DocumentSQLField, _ match: TextMatch, _ text: String, in builder: inout DocumentSQLBuilder
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
        let margin = Swift.max(abs(number) * 1e-12, 1e-300)
        lower = builder.parameter(.real(number - margin))
        upper = builder.parameter(.real(number + margin))
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
