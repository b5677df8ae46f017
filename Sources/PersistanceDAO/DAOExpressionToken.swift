/// A token of the expression language, with the 1-based column it starts at.
struct DAOExpressionToken: Sendable {
    enum Kind: Sendable, Equatable {
        case integer(Int64)
        case real(Double)
        case string(String)
        case identifier(String)
        /// `and`, `or`, `not`, `xor`, `nil`, in lower case (the language ignores case).
        case keyword(String)
        /// An operator or punctuation: `( ) . + - * / \ % < > <= >= == !=`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var column: Int
}
