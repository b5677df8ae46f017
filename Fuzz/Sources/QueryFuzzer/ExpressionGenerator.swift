import FuzzSupport
import Persistance

/// Builds expressions, queries and assignments of the query builder from fuzzer bytes.
struct ExpressionGenerator {
    /// A generated expression and what the oracle needs to know about it.
    struct Generated {
        var expression: SQLExpression
        /// A plain column reference (its affinity changes how SQLite compares it).
        var isColumn = false
        /// Built only from known columns, values and deterministic functions.
        var isDeterministic = true
    }

    /// A binary operator applied at the top of an expression, with its operands.
    struct Binary {
        var `operator`: UInt8
        var lhs: SQLExpression
        var rhs: SQLExpression
        var combined: SQLExpression
    }

    static let operatorCount: UInt8 = 12
    static let columns = ["a", "b", "c", "d", "rowid"]
    static let functions = ["abs", "length", "lower", "upper", "coalesce", "ifnull", "nullif", "typeof", "hex", "max", "min"]

    var input: FuzzInput
    /// The last binary node built at depth 0 whose operands the oracle can compare.
    private(set) var lastTopLevelBinary: Binary?

    init(input: FuzzInput) {
        self.input = input
    }

    /// `lhs op rhs` for operator number `op`: comparisons, logic, then arithmetic.
    static func combine(_ op: UInt8, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        let l: any SQLExpressible = lhs, r: any SQLExpressible = rhs
        switch op % operatorCount {
        case 0: return l == r
        case 1: return l != r
        case 2: return l < r
        case 3: return l <= r
        case 4: return l > r
        case 5: return l >= r
        case 6: return l && r
        case 7: return l || r
        case 8: return l + r
        case 9: return l - r
        case 10: return l * r
        default: return l / r
        }
    }

    private static func isComparison(_ op: UInt8) -> Bool { op % operatorCount < 6 }

    mutating func expression(depth: Int = 0) -> Generated {
        let kind = depth > 6 ? input.byte() % 2 : input.byte() % 12
        switch kind {
        case 0:
            let pick = Int(input.byte())
            if pick < 224 { return Generated(expression: Column(Self.columns[pick % Self.columns.count]).sqlExpression, isColumn: true) }
            return Generated(expression: Column(input.string()).sqlExpression, isColumn: true, isDeterministic: false)
        case 1:
            return Generated(expression: .value(input.databaseValue()))
        case 2:
            let op = input.byte()
            let lhs = expression(depth: depth + 1), rhs = expression(depth: depth + 1)
            let combined = Self.combine(op, lhs.expression, rhs.expression)
            if depth == 0, !(Self.isComparison(op) && (lhs.isColumn || rhs.isColumn)) {
                lastTopLevelBinary = Binary(operator: op, lhs: lhs.expression, rhs: rhs.expression, combined: combined)
            }
            return Generated(expression: combined, isDeterministic: lhs.isDeterministic && rhs.isDeterministic)
        case 3:
            let operand = expression(depth: depth + 1)
            return Generated(expression: !operand.expression, isDeterministic: operand.isDeterministic)
        case 4:
            let operand = expression(depth: depth + 1)
            let values = (0..<Int(input.byte() % 8)).map { _ in input.databaseValue() }
            return Generated(expression: operand.expression.in(values), isDeterministic: operand.isDeterministic)
        case 5:
            let operand = expression(depth: depth + 1)
            let pattern = input.string()
            let escape = input.byte() % 3 == 0 ? input.string().first : nil
            return Generated(expression: operand.expression.like(pattern, escape: escape), isDeterministic: operand.isDeterministic)
        case 6:
            let operand = expression(depth: depth + 1), lower = expression(depth: depth + 1), upper = expression(depth: depth + 1)
            return Generated(
                expression: operand.expression.between(lower.expression, and: upper.expression),
                isDeterministic: operand.isDeterministic && lower.isDeterministic && upper.isDeterministic)
        case 7:
            let pick = Int(input.byte())
            let known = pick < 224
            let name = known ? Self.functions[pick % Self.functions.count] : input.string()
            let arguments = (0..<Int(input.byte() % 4)).map { _ in expression(depth: depth + 1) }
            let call: SQLExpression = switch arguments.map(\.expression) {
            case let list where list.count == 3: .function(name, list[0], list[1], list[2])
            case let list where list.count == 2: .function(name, list[0], list[1])
            case let list where list.count == 1: .function(name, list[0])
            default: .function(name)
            }
            return Generated(expression: call, isDeterministic: known && arguments.allSatisfy(\.isDeterministic))
        case 8:
            let operand = expression(depth: depth + 1)
            let aggregates: [SQLExpression] = [
                .count(operand.expression), .count(distinct: operand.expression), .sum(operand.expression),
                .total(operand.expression), .average(operand.expression), .min(operand.expression),
                .max(operand.expression), .countAll,
            ]
            return Generated(expression: aggregates[Int(input.byte()) % aggregates.count], isDeterministic: operand.isDeterministic)
        case 9:
            let parts = (0..<Int(input.byte() % 5)).map { _ in expression(depth: depth + 1) }
            let list = parts.map(\.expression)
            return Generated(
                expression: input.byte() % 2 == 0 ? .all(list) : .any(list), isDeterministic: parts.allSatisfy(\.isDeterministic))
        case 10:
            let operand = expression(depth: depth + 1)
            let l: any SQLExpressible = operand.expression
            return Generated(expression: input.byte() % 2 == 0 ? l == nil : l != nil, isDeterministic: operand.isDeterministic)
        default:
            // A chain up to 1,023 operators long, past SQLite's depth limit of 1,000: it must
            // fail cleanly. (Longer chains only slow the fuzzer: building one costs time
            // quadratic in its length.)
            var chain = expression(depth: depth + 1)
            let length = Int(input.byte()) << 2 | Int(input.byte() % 4)
            let op = input.byte()
            for _ in 0..<length {
                chain.expression = op % 3 == 0 ? !chain.expression : Self.combine(op, chain.expression, .value(DatabaseValue.integer(1)))
            }
            return chain
        }
    }

    /// A query on `t` (sometimes on a fuzzed table name) with the other clauses fuzzed too.
    mutating func query(filteredBy predicate: SQLExpression, orderedBy ordering: SQLExpression) -> Query<Row> {
        var query = Query<Row>(table: input.byte() < 240 ? "t" : input.string())
        let flags = input.byte()
        if flags & 1 != 0 { query = query.filter(predicate) }
        if flags & 2 != 0 {
            let orderings: [any SQLOrderable] = [ordering, ordering.asc, ordering.desc, ordering.asc.nullsFirst, ordering.desc.nullsLast]
            query = query.order(orderings[Int(input.byte()) % orderings.count])
        }
        if flags & 4 != 0 { query = query.limit(Int(Int8(bitPattern: input.byte())), offset: flags & 8 != 0 ? Int(input.byte()) : nil) }
        if flags & 16 != 0 { query = query.distinct() }
        if flags & 32 != 0 {
            let selected = expression(depth: 1).expression
            query = query.select(selected.aliased(input.string()), Column("a"))
        }
        if flags & 64 != 0 { query = query.group(by: expression(depth: 1).expression) }
        if flags & 128 != 0 { query = query.having(expression(depth: 1).expression) }
        return query
    }

    /// Assignments for `updateAll`: known or fuzzed column names, values or expressions.
    mutating func assignments() -> [ColumnAssignment] {
        (0..<Int(1 + input.byte() % 3)).map { _ in
            let pick = Int(input.byte())
            let column = Column(pick < 224 ? Self.columns[pick % 4] : input.string())
            return pick % 2 == 0 ? column.set(to: input.databaseValue()) : column.set(to: expression(depth: 1).expression)
        }
    }
}
