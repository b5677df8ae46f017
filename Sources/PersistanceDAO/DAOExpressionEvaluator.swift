/// Evaluates `if`/`when` expressions.
///
/// Truth follows the seed's Objective-C: nil and numeric zero are false, any other value is
/// true. `and`/`or`/`xor`/`not` and comparisons give 1 or 0. `+` adds numbers or joins
/// strings; `/` divides exactly (a real unless both integers divide evenly), `\` divides
/// integers truncating, `%` is the integer remainder. nil is Objective-C's nil: it equals
/// only nil, an ordering comparison with it is false, arithmetic or a sign with it gives nil,
/// and its `count` is 0.
enum DAOExpressionEvaluator {
    static func isTrue(_ expression: DAOExpression, in scope: DAOScope, at location: DAOSourceLocation?) throws -> Bool {
        truth(try evaluate(expression, in: scope, at: location))
    }

    static func truth(_ value: DAOValue) -> Bool {
        switch value {
        case .null: false
        case .integer(let number): number != 0
        case .real(let number): number != 0
        default: true
        }
    }

    static func evaluate(_ expression: DAOExpression, in scope: DAOScope, at location: DAOSourceLocation?) throws -> DAOValue {
        switch expression {
        case .literal(let value):
            return value
        case .path(let path):
            return try scope.resolve(path, at: location).value
        case .unary(let operation, let operand):
            let value = try evaluate(operand, in: scope, at: location)
            switch (operation, value) {
            case (.not, _): return boolean(!truth(value))
            case (_, .null): return .null
            case (.plus, .integer), (.plus, .real): return value
            case (.minus, .integer(let number)):
                guard number != .min else { throw failure("integer overflow in negation", location) }
                return .integer(-number)
            case (.minus, .real(let number)): return .real(-number)
            default: throw failure("a sign needs a number, not \(value.kindName)", location)
            }
        case .binary(let operation, let leftExpression, let rightExpression):
            let left = try evaluate(leftExpression, in: scope, at: location)
            switch operation {
            case .and:
                guard truth(left) else { return boolean(false) }
                return boolean(truth(try evaluate(rightExpression, in: scope, at: location)))
            case .or:
                guard !truth(left) else { return boolean(true) }
                return boolean(truth(try evaluate(rightExpression, in: scope, at: location)))
            default:
                let right = try evaluate(rightExpression, in: scope, at: location)
                return try apply(operation, left, right, at: location)
            }
        }
    }

    private static func boolean(_ value: Bool) -> DAOValue { .integer(value ? 1 : 0) }

    private static func failure(_ message: String, _ location: DAOSourceLocation?) -> DAOError {
        DAOError(.expressionType, message, at: location)
    }

    private static func apply(
        _ operation: DAOExpression.BinaryOperator, _ left: DAOValue, _ right: DAOValue, at location: DAOSourceLocation?
    ) throws -> DAOValue {
        switch operation {
        case .xor:
            return boolean(truth(left) != truth(right))
        case .equal:
            return boolean(try compare(left, right, for: operation, at: location) == .orderedSame)
        case .notEqual:
            return boolean(try compare(left, right, for: operation, at: location) != .orderedSame)
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            guard !left.isNull, !right.isNull else { return boolean(false) }
            let order = try compare(left, right, for: operation, at: location)
            switch operation {
            case .less: return boolean(order == .orderedAscending)
            case .greater: return boolean(order == .orderedDescending)
            case .lessOrEqual: return boolean(order != .orderedDescending)
            default: return boolean(order != .orderedAscending)
            }
        case _ where left.isNull || right.isNull:
            return .null
        case .add:
            if case .text(let a) = left, case .text(let b) = right { return .text(a + b) }
            return try arithmetic(operation, left, right, at: location)
        default:
            return try arithmetic(operation, left, right, at: location)
        }
    }

    private enum Order { case orderedAscending, orderedSame, orderedDescending, unordered }

    private static func compare(
        _ left: DAOValue, _ right: DAOValue, for operation: DAOExpression.BinaryOperator, at location: DAOSourceLocation?
    ) throws -> Order {
        func order<T: Comparable>(_ a: T, _ b: T) -> Order {
            a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        }
        switch (left, right) {
        case (.null, .null): return .orderedSame
        case (.null, _), (_, .null): return .unordered
        case (.integer(let a), .integer(let b)): return order(a, b)
        case (.integer(let a), .real(let b)): return order(Double(a), b)
        case (.real(let a), .integer(let b)): return order(a, Double(b))
        case (.real(let a), .real(let b)): return order(a, b)
        case (.text(let a), .text(let b)): return order(a, b)
        default:
            if operation == .equal || operation == .notEqual { return left == right ? .orderedSame : .unordered }
            throw failure("\"\(operation.rawValue)\" cannot compare \(left.kindName) with \(right.kindName)", location)
        }
    }

    private static func arithmetic(
        _ operation: DAOExpression.BinaryOperator, _ left: DAOValue, _ right: DAOValue, at location: DAOSourceLocation?
    ) throws -> DAOValue {
        switch (left, right) {
        case (.integer(let a), .integer(let b)):
            let result: (Int64, Bool)
            switch operation {
            case .add: result = a.addingReportingOverflow(b)
            case .subtract: result = a.subtractingReportingOverflow(b)
            case .multiply: result = a.multipliedReportingOverflow(by: b)
            case .divide, .integerDivide, .remainder:
                guard b != 0 else { throw failure("division by zero", location) }
                if operation == .divide, a % b != 0 { return .real(Double(a) / Double(b)) }
                result = operation == .remainder ? a.remainderReportingOverflow(dividingBy: b) : a.dividedReportingOverflow(by: b)
            default: throw failure("\"\(operation.rawValue)\" is not arithmetic", location)
            }
            guard !result.1 else { throw failure("integer overflow in \"\(operation.rawValue)\"", location) }
            return .integer(result.0)
        case (.integer, .real), (.real, .integer), (.real, .real):
            let a = number(left), b = number(right)
            switch operation {
            case .add: return .real(a + b)
            case .subtract: return .real(a - b)
            case .multiply: return .real(a * b)
            case .divide:
                guard b != 0 else { throw failure("division by zero", location) }
                return .real(a / b)
            case .integerDivide:
                guard b != 0 else { throw failure("division by zero", location) }
                return .real((a / b).rounded(.towardZero))
            case .remainder:
                guard b != 0 else { throw failure("division by zero", location) }
                return .real(a.truncatingRemainder(dividingBy: b))
            default: throw failure("\"\(operation.rawValue)\" is not arithmetic", location)
            }
        default:
            throw failure("\"\(operation.rawValue)\" needs numbers, not \(left.kindName) and \(right.kindName)", location)
        }
    }

    private static func number(_ value: DAOValue) -> Double {
        switch value {
        case .integer(let number): Double(number)
        case .real(let number): number
        default: 0
        }
    }
}
