/// A parsed `if`/`when` expression.
indirect enum DAOExpression: Sendable {
    /// Operators that take one operand.
    enum UnaryOperator: Sendable {
        case plus, minus, not
    }

    /// Operators that take two operands.
    enum BinaryOperator: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", integerDivide = "\\", remainder = "%"
        case less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">=", equal = "==", notEqual = "!="
        case and, or, xor
    }

    case literal(DAOValue)
    /// An argument, possibly followed by property accesses (`model.author.name`, `list.count`).
    case path(DAOPath)
    case unary(UnaryOperator, DAOExpression)
    case binary(BinaryOperator, DAOExpression, DAOExpression)
}
