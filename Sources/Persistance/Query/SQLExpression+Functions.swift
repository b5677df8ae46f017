// SQL function calls, and the aggregate functions for `select`, `group(by:)` and `having`.

extension SQLExpressible where Self == SQLExpression {
    /// A call of the SQL function `name` with `arguments`: `SQLExpression.function("lower", Column("name"))`.
    ///
    /// The name must be a plain SQL name (ASCII letters, digits and `_`, not starting with a
    /// digit); any other name makes the query throw `invalidQuery` when it runs.
    public static func function(_ name: String, _ arguments: any SQLExpressible...) -> SQLExpression {
        call(name, arguments: arguments.map { $0.sqlExpression })
    }

    /// `count(expression)`: the number of rows where `expression` is not NULL.
    public static func count(_ expression: any SQLExpressible) -> SQLExpression {
        call("count", arguments: [expression.sqlExpression])
    }

    /// `count(DISTINCT expression)`: the number of distinct non-NULL values of `expression`.
    public static func count(distinct expression: any SQLExpressible) -> SQLExpression {
        call("count", arguments: [expression.sqlExpression], distinct: true)
    }

    /// `count(*)`: the number of rows.
    public static var countAll: SQLExpression {
        SQLExpression([.text("count(*)")], precedence: .atomic)
    }

    /// `sum(expression)`: the sum of the non-NULL values, NULL when there is none.
    public static func sum(_ expression: any SQLExpressible) -> SQLExpression {
        call("sum", arguments: [expression.sqlExpression])
    }

    /// `total(expression)`: the sum of the non-NULL values as a REAL, 0.0 when there is none.
    public static func total(_ expression: any SQLExpressible) -> SQLExpression {
        call("total", arguments: [expression.sqlExpression])
    }

    /// `avg(expression)`: the average of the non-NULL values, NULL when there is none.
    public static func average(_ expression: any SQLExpressible) -> SQLExpression {
        call("avg", arguments: [expression.sqlExpression])
    }

    /// `min(expression)`: the smallest non-NULL value, NULL when there is none.
    public static func min(_ expression: any SQLExpressible) -> SQLExpression {
        call("min", arguments: [expression.sqlExpression])
    }

    /// `max(expression)`: the largest non-NULL value, NULL when there is none.
    public static func max(_ expression: any SQLExpressible) -> SQLExpression {
        call("max", arguments: [expression.sqlExpression])
    }

    private static func call(_ name: String, arguments: [SQLExpression], distinct: Bool = false) -> SQLExpression {
        guard isPlainName(name) else {
            let error = DatabaseError.invalidQuery("\"\(name)\" is not a valid SQL function name")
            return SQLExpression([.invalid(error)], precedence: .atomic)
        }
        var pieces: [SQLPiece] = [.text(name), .text(distinct ? "(DISTINCT " : "(")]
        for (index, argument) in arguments.enumerated() {
            if index > 0 { pieces.append(.text(", ")) }
            pieces.append(contentsOf: argument.embeddedPieces)
        }
        pieces.append(.text(")"))
        return SQLExpression(pieces, precedence: .atomic)
    }

    private static func isPlainName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            default:
                false
            }
        }
    }
}
