/// `AND` or `OR`, which take any number of operands.
enum SQLLogicalOperator: Sendable {
    case and
    case or

    var precedence: SQLPrecedence {
        switch self {
        case .and: .and
        case .or: .or
        }
    }

    /// The result of the operator over no operands: true for `AND`, false for `OR`.
    var identity: Bool { self == .and }

    /// What joins two operands: ` AND ` or ` OR `.
    var separator: String {
        switch self {
        case .and: " AND "
        case .or: " OR "
        }
    }

    /// How many operands are joined flat before they are grouped in parentheses: SQLite
    /// parses `a OR b OR c` as a left-deep tree, and limits expression depth to 1,000.
    static let maximumFlatOperands = 16

    /// `operands` joined by the operator. Up to `maximumFlatOperands` are joined flat;
    /// more are grouped level by level into parenthesized runs, so the depth SQLite sees
    /// grows with the logarithm of the count. Iterative: no recursion however many operands.
    func join(_ operands: [[SQLPiece]]) -> [SQLPiece] {
        var level = operands
        while level.count > Self.maximumFlatOperands {
            level = stride(from: 0, to: level.count, by: Self.maximumFlatOperands).map { start in
                let run = level[start..<min(start + Self.maximumFlatOperands, level.count)]
                return SQLExpression.parenthesized(joinFlat(run))
            }
        }
        return joinFlat(level[...])
    }

    private func joinFlat(_ operands: ArraySlice<[SQLPiece]>) -> [SQLPiece] {
        var pieces = [SQLPiece]()
        pieces.reserveCapacity(operands.reduce(operands.count) { $0 + $1.count })
        for operand in operands {
            if !pieces.isEmpty { pieces.append(.text(separator)) }
            pieces.append(contentsOf: operand)
        }
        return pieces
    }

    /// The operator applied to `expressions`: the identity constant for none, the expression
    /// itself for one, otherwise one flat chain (operands that are chains of the same
    /// operator are merged into it).
    func combine(_ expressions: [SQLExpression]) -> SQLExpression {
        switch expressions.count {
        case 0: return SQLExpression.constant(identity)
        case 1: return expressions[0]
        default: break
        }
        var operands = [[SQLPiece]]()
        operands.reserveCapacity(expressions.count)
        for expression in expressions {
            if case .chain(self, let inner) = expression.storage {
                operands.append(contentsOf: inner)
            } else {
                operands.append(expression.operand(of: precedence))
            }
        }
        return SQLExpression(chain: self, operands: operands)
    }
}
