/// How tightly an expression binds, from loosest to tightest, so that operands are
/// parenthesized exactly where SQL needs it.
///
/// Every comparison (`=`, `<`, `IS`, `IN`, `LIKE`, `BETWEEN`) shares one level and does not
/// associate, so a comparison used as an operand of another is always parenthesized.
enum SQLPrecedence: Int, Comparable, Sendable {
    /// A raw SQL fragment: its shape is unknown, so it is parenthesized wherever it is an operand.
    case fragment
    case or
    case and
    case not
    case comparison
    case additive
    case multiplicative
    /// A column, a value, a function call or a parenthesized expression.
    case atomic

    static func < (lhs: SQLPrecedence, rhs: SQLPrecedence) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
