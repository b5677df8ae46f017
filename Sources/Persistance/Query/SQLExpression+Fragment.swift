extension SQLExpressible where Self == SQLExpression {
    /// A raw SQL fragment, for what the typed expressions do not cover, with its own
    /// positional (`?`) or named (`:name`, `@name`, `$name`) arguments.
    ///
    /// The fragment is SQL you write: it is inserted as it is (parenthesized where it is an
    /// operand), so never build it from user input — pass user input as arguments, which
    /// are bound. Named arguments with the same name in several fragments of one query
    /// must have the same value. Numbered parameters (`?1`) are not supported.
    /// ```swift
    /// query.filter(.sql("name = :name AND age > :age", ["name": "casa", "age": 3]))
    /// query.filter(Column("score") > 5 && .sql("length(name) < ?", [10]))
    /// ```
    public static func sql(_ sql: String, _ arguments: StatementArguments = StatementArguments()) -> SQLExpression {
        SQLExpression([.fragment(sql, arguments)], precedence: .fragment)
    }

    /// A raw SQL fragment written with interpolation, every interpolated value bound (see `SQL`):
    /// ```swift
    /// query.filter(.sql(literal: "length(name) < \(limit) AND id IN \(ids)"))
    /// ```
    public static func sql(literal sql: SQL) -> SQLExpression {
        .sql(sql.text, sql.arguments)
    }

    /// A value as an expression, bound as a parameter: for places that take expressions,
    /// such as a function argument or the left side of `between`.
    public static func value(_ value: (any DatabaseValueConvertible)?) -> SQLExpression {
        SQLExpression([SQLExpression.piece(for: value)], precedence: .atomic)
    }
}
