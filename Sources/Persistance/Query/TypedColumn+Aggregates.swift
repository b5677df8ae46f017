// Aggregate functions of a typed column, typed by the column: `count` is an `Int`; `sum`,
// `min` and `max` of a `T` column are `T?` (NULL when no row has a value), and `avg` is
// a `Double?`. Optional columns give the same types (not doubly optional). NULL values
// are skipped by every aggregate, as SQL does.

extension TypedColumn {
    /// `count(column)`: the number of rows where the column is not NULL.
    public func count() -> TypedExpression<Int> {
        TypedExpression(SQLExpression.count(sqlExpression))
    }

    /// `count(DISTINCT column)`: the number of distinct non-NULL values.
    public func countDistinct() -> TypedExpression<Int> {
        TypedExpression(SQLExpression.count(distinct: sqlExpression))
    }
}

extension TypedColumn where Value: Numeric & DatabaseValueConvertible {
    /// `sum(column)`: the sum of the values, nil when there is none.
    public func sum() -> TypedExpression<Value?> {
        TypedExpression(SQLExpression.sum(sqlExpression))
    }

    /// `avg(column)`: the average of the values, nil when there is none.
    public func avg() -> TypedExpression<Double?> {
        TypedExpression(SQLExpression.average(sqlExpression))
    }
}

extension TypedColumn where Value: Comparable & DatabaseValueConvertible {
    /// `min(column)`: the smallest value, nil when there is none.
    public func min() -> TypedExpression<Value?> {
        TypedExpression(SQLExpression.min(sqlExpression))
    }

    /// `max(column)`: the largest value, nil when there is none.
    public func max() -> TypedExpression<Value?> {
        TypedExpression(SQLExpression.max(sqlExpression))
    }
}

extension TypedColumn {
    /// `sum(column)` of an optional column: the sum of the non-NULL values, nil when there is none.
    public func sum<Wrapped: Numeric & DatabaseValueConvertible>() -> TypedExpression<Wrapped?>
    where Value == Wrapped? {
        TypedExpression(SQLExpression.sum(sqlExpression))
    }

    /// `avg(column)` of an optional column: the average of the non-NULL values, nil when there is none.
    public func avg<Wrapped: Numeric & DatabaseValueConvertible>() -> TypedExpression<Double?>
    where Value == Wrapped? {
        TypedExpression(SQLExpression.average(sqlExpression))
    }

    /// `min(column)` of an optional column: the smallest non-NULL value, nil when there is none.
    public func min<Wrapped: Comparable & DatabaseValueConvertible>() -> TypedExpression<Wrapped?>
    where Value == Wrapped? {
        TypedExpression(SQLExpression.min(sqlExpression))
    }

    /// `max(column)` of an optional column: the largest non-NULL value, nil when there is none.
    public func max<Wrapped: Comparable & DatabaseValueConvertible>() -> TypedExpression<Wrapped?>
    where Value == Wrapped? {
        TypedExpression(SQLExpression.max(sqlExpression))
    }
}
