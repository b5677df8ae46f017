/// An SQL expression built from columns, values, operators and functions, with every
/// value kept as a bound parameter and every identifier quoted.
///
/// Build expressions with operators on columns and values, and use them to filter, order,
/// select or update through a `Query`:
/// ```swift
/// let recent = Column("score") >= 10 && Column("name") != nil
/// let sameName = Column("name") == Column("nickname")
/// let adult = Column("age").between(18, and: 65)
/// let named = SQLExpression.sql("lower(name) = :name", ["name": "ann"])
/// ```
///
/// Expressions are immutable values: combining two makes a third and leaves both intact,
/// sharing them instead of copying them, so building costs time proportional to the number
/// of operators however deeply they nest. Long chains of `&&` or `||` are kept flat and
/// rendered as a balanced tree, so thousands of alternatives stay within SQLite's
/// expression depth limit; other operators nest as written, and SQLite rejects too deep a
/// nesting with an error (its parser takes a few dozen nested parentheses, its expression
/// depth limit is 1,000).
public struct SQLExpression: SQLExpressible, SQLRenderable, Sendable {
    enum Storage: Sendable {
        /// A rendered expression and how tightly it binds.
        case pieces([SQLPiece], SQLPrecedence)
        /// Two or more operands joined by one logical operator, each already parenthesized for it.
        case chain(SQLLogicalOperator, [[SQLPiece]])
    }

    var storage: Storage

    init(_ pieces: [SQLPiece], precedence: SQLPrecedence) {
        storage = .pieces(pieces, precedence)
    }

    init(chain logicalOperator: SQLLogicalOperator, operands: [[SQLPiece]]) {
        storage = .chain(logicalOperator, operands)
    }

    public var sqlExpression: SQLExpression { self }

    /// How tightly the expression binds when it is an operand.
    var precedence: SQLPrecedence {
        switch storage {
        case .pieces(_, let precedence): precedence
        case .chain(let logicalOperator, _): logicalOperator.precedence
        }
    }

    /// The expression's pieces, for a place that takes any expression (a clause, a function argument).
    var pieces: [SQLPiece] {
        switch storage {
        case .pieces(let pieces, _): pieces
        case .chain(let logicalOperator, let operands): logicalOperator.join(operands)
        }
    }

    func render<Writer: SQLWriter>(into writer: inout Writer) throws {
        // A short chain is written operand by operand, without joining it into a new array.
        if case .chain(let logicalOperator, let operands) = storage,
            operands.count <= SQLLogicalOperator.maximumFlatOperands
        {
            for (index, operand) in operands.enumerated() {
                if index > 0 { writer.append(logicalOperator.separator) }
                try writer.append(operand)
            }
            return
        }
        try writer.append(pieces)
    }

    /// How many pieces an expression may have and still be copied into the expressions built
    /// on it; a larger one is referred to through an `SQLExpressionNode`. Copying keeps common
    /// expressions flat (nothing to allocate or to walk into when rendering); the bound keeps
    /// each operator's cost constant, so deep expressions build in linear time.
    static let maximumCopiedPieces = 8

    /// The expression's pieces, to place inside another expression, in constant time: a copy
    /// of them when they are few, else one piece that refers to the whole expression.
    var embeddedPieces: [SQLPiece] {
        if case .pieces(let pieces, _) = storage, pieces.count <= Self.maximumCopiedPieces { return pieces }
        return [.expression(SQLExpressionNode(self))]
    }

    /// The expression as an operand of an operator of `precedence`: parenthesized unless the
    /// expression binds more tightly than the operator, or as tightly when `allowsEqual` (the
    /// left side of a left-associative operator). Constant time: see `embeddedPieces`.
    func operand(of precedence: SQLPrecedence, allowsEqual: Bool = false) -> [SQLPiece] {
        let bindsTightly = allowsEqual ? self.precedence >= precedence : self.precedence > precedence
        return bindsTightly ? embeddedPieces : SQLExpression.parenthesized(embeddedPieces)
    }

    static func parenthesized(_ pieces: [SQLPiece]) -> [SQLPiece] {
        var result = [SQLPiece]()
        result.reserveCapacity(pieces.count + 2)
        result.append(.text("("))
        result.append(contentsOf: pieces)
        result.append(.text(")"))
        return result
    }

    /// `lhs op rhs`, with each side parenthesized as needed: the left side may bind as
    /// loosely as a left-associative operator, the right side must bind more tightly, and
    /// both sides of a non-associative operator (a comparison) must bind more tightly.
    static func binary(
        _ lhs: SQLExpression, _ op: String, _ rhs: SQLExpression,
        precedence: SQLPrecedence, associative: Bool = true
    ) -> SQLExpression {
        var pieces = lhs.operand(of: precedence, allowsEqual: associative)
        pieces.append(.text(op))
        pieces.append(contentsOf: rhs.operand(of: precedence))
        return SQLExpression(pieces, precedence: precedence)
    }

    /// The piece for a value: the value to bind, or the error converting it, thrown when rendered.
    static func piece(for value: (any DatabaseValueConvertible)?) -> SQLPiece {
        guard let value else { return .value(.null) }
        do {
            return .value(try value.databaseValue)
        } catch let error as DatabaseError {
            return .invalid(error)
        } catch {
            return .invalid(DatabaseError.encoding(String(describing: error)))
        }
    }

    /// SQL's true and false, as the dialect writes them (`1` and `0` for SQLite).
    static func constant(_ value: Bool) -> SQLExpression {
        SQLExpression([.boolean(value)], precedence: .atomic)
    }
}
