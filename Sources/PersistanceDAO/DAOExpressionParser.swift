/// A Pratt parser for the `if`/`when` expression language.
///
/// Binding power, loosest first: `or`; `xor`; `and`; `not`; comparisons; `+ -`;
/// `* / \ %`; unary `+ -`; property access `.`.
struct DAOExpressionParser {
    private let text: String
    private let location: DAOSourceLocation?
    private let tokens: [DAOExpressionToken]
    private var position = 0

    /// Parses `text` into an expression.
    /// - Throws: `DAOError.Kind.expressionSyntax` naming the column where it stops making sense.
    static func parse(_ text: String, at location: DAOSourceLocation?) throws -> DAOExpression {
        var parser = DAOExpressionParser(
            text: text, location: location, tokens: try DAOExpressionTokenizer.tokens(of: text, at: location))
        let expression = try parser.expression(minimumPower: 0)
        guard case .end = parser.current.kind else { throw parser.unexpected() }
        return expression
    }

    private init(text: String, location: DAOSourceLocation?, tokens: [DAOExpressionToken]) {
        self.text = text
        self.location = location
        self.tokens = tokens
    }

    private var current: DAOExpressionToken { tokens[position] }

    private mutating func advance() -> DAOExpressionToken {
        defer { position = min(position + 1, tokens.count - 1) }
        return tokens[position]
    }

    private func unexpected(_ token: DAOExpressionToken? = nil) -> DAOError {
        let token = token ?? current
        let what: String
        switch token.kind {
        case .end: what = "unexpected end"
        case .symbol(let symbol): what = "unexpected \"\(symbol)\""
        case .keyword(let word), .identifier(let word): what = "unexpected \"\(word)\""
        case .integer, .real: what = "unexpected number"
        case .string: what = "unexpected string"
        }
        return DAOError(.expressionSyntax, "\(what) at column \(token.column) of expression \"\(text)\"", at: location)
    }

    private static let prefixNotPower = 7
    private static let prefixSignPower = 14

    /// The binary operator the current token is, with its left and right binding powers.
    private var infix: (DAOExpression.BinaryOperator, Int, Int)? {
        switch current.kind {
        case .keyword("or"): (DAOExpression.BinaryOperator.or, 1, 2)
        case .keyword("xor"): (DAOExpression.BinaryOperator.xor, 3, 4)
        case .keyword("and"): (DAOExpression.BinaryOperator.and, 5, 6)
        case .symbol(let symbol):
            switch symbol {
            case "<", ">", "<=", ">=", "==", "!=": (DAOExpression.BinaryOperator(rawValue: symbol)!, 8, 9)
            case "+", "-": (DAOExpression.BinaryOperator(rawValue: symbol)!, 10, 11)
            case "*", "/", "\\", "%": (DAOExpression.BinaryOperator(rawValue: symbol)!, 12, 13)
            default: nil
            }
        default: nil
        }
    }

    private mutating func expression(minimumPower: Int) throws -> DAOExpression {
        var left = try prefix()
        while let (operation, leftPower, rightPower) = infix, leftPower >= minimumPower {
            _ = advance()
            let right = try expression(minimumPower: rightPower)
            left = .binary(operation, left, right)
        }
        return left
    }

    private mutating func prefix() throws -> DAOExpression {
        let token = advance()
        switch token.kind {
        case .integer(let value): return .literal(.integer(value))
        case .real(let value): return .literal(.real(value))
        case .string(let value): return .literal(.text(value))
        case .keyword("nil"): return .literal(.null)
        case .keyword("not"): return .unary(.not, try expression(minimumPower: Self.prefixNotPower))
        case .symbol("+"): return .unary(.plus, try expression(minimumPower: Self.prefixSignPower))
        case .symbol("-"): return .unary(.minus, try expression(minimumPower: Self.prefixSignPower))
        case .symbol("("):
            let inner = try expression(minimumPower: 0)
            guard case .symbol(")") = current.kind else { throw unexpected() }
            _ = advance()
            return inner
        case .identifier(let name):
            var members = [String]()
            while case .symbol(".") = current.kind {
                _ = advance()
                guard case .identifier(let member) = current.kind else { throw unexpected() }
                members.append(member)
                _ = advance()
            }
            return .path(DAOPath(root: name, members: members))
        default:
            throw unexpected(token)
        }
    }
}
