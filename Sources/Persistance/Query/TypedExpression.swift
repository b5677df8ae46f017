/// An SQL expression whose values have a known Swift type, such as an aggregate of a typed
/// column: `player.score.sum()` is a `TypedExpression<Int?>` when `score` holds `Int`.
///
/// It is an expression (compare it, filter or order by it, use it in `having`) and a typed
/// result column (select it to fetch its values as `Value`).
public struct TypedExpression<Value: DatabaseValueConvertible>: TypedSelectable, SQLExpressible {
    public let sqlExpression: SQLExpression

    /// `expression`, whose values are read as `Value`.
    public init(_ expression: some SQLExpressible) {
        sqlExpression = expression.sqlExpression
    }
}

extension TypedExpression where Value == Int {
    /// `count(*)`: the number of rows (of each group, in a grouped query).
    public static var countAll: TypedExpression<Int> {
        TypedExpression(SQLExpression.countAll)
    }
}
