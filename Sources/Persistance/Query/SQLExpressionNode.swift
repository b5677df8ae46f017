/// An expression that other expressions refer to (through `SQLPiece.expression`) instead of
/// copying its pieces, so an operator costs the same however large its operands are.
///
/// Releasing a deep expression (`!(!(!…))`) would release each level from inside the
/// release of the level above, and run out of stack a few thousand levels down; this
/// node's `deinit` releases the levels below it one after the other instead.
final class SQLExpressionNode: @unchecked Sendable {
    // @unchecked: `expression` is only changed by `deinit`, when nothing else refers to the node.
    private(set) var expression: SQLExpression

    init(_ expression: SQLExpression) {
        self.expression = expression
    }

    deinit {
        var pending = expression.takeNodes()
        while var node = pending.popLast() {
            if isKnownUniquelyReferenced(&node) {
                pending.append(contentsOf: node.expression.takeNodes())
            }
        }
    }
}

extension SQLExpression {
    /// Empties the expression and returns the nodes its pieces referred to, so that releasing
    /// the pieces releases no node.
    fileprivate mutating func takeNodes() -> [SQLExpressionNode] {
        let taken = storage
        storage = .pieces([], .atomic)
        let pieces: [[SQLPiece]] = switch taken {
        case .pieces(let pieces, _): [pieces]
        case .chain(_, let operands): operands
        }
        return pieces.joined().compactMap { piece in
            if case .expression(let node) = piece { node } else { nil }
        }
    }
}
