// Comparisons of a typed column with a value of another type, declared unavailable so that
// the compiler says what is wrong (`task.priority > 1` on an enum column) instead of that
// the column "does not conform to SQLExpressible". Disfavored: they are chosen only when no
// comparison of the column's own type applies, so they never shadow a valid one.

/// Unavailable: a typed column compares with a value of its own Swift type.
@available(*, unavailable, message: "a typed column compares only with a value of its own Swift type (an enum column with a case, not its raw value); convert the value, or compare `column.sqlExpression` for an untyped comparison")
@_disfavoredOverload
public func == <Root, Value, Other>(lhs: TypedColumn<Root, Value>, rhs: Other) -> SQLExpression {
    fatalError("unavailable")
}

/// Unavailable: a typed column compares with a value of its own Swift type.
@available(*, unavailable, message: "a typed column compares only with a value of its own Swift type (an enum column with a case, not its raw value); convert the value, or compare `column.sqlExpression` for an untyped comparison")
@_disfavoredOverload
public func != <Root, Value, Other>(lhs: TypedColumn<Root, Value>, rhs: Other) -> SQLExpression {
    fatalError("unavailable")
}

/// Unavailable: a typed column compares with a value of its own Swift type.
@available(*, unavailable, message: "a typed column compares only with a value of its own Swift type (an enum column with a case, not its raw value); convert the value, or compare `column.sqlExpression` for an untyped comparison")
@_disfavoredOverload
public func < <Root, Value, Other>(lhs: TypedColumn<Root, Value>, rhs: Other) -> SQLExpression {
    fatalError("unavailable")
}

/// Unavailable: a typed column compares with a value of its own Swift type.
@available(*, unavailable, message: "a typed column compares only with a value of its own Swift type (an enum column with a case, not its raw value); convert the value, or compare `column.sqlExpression` for an untyped comparison")
@_disfavoredOverload
public func <= <Root, Value, Other>(lhs: TypedColumn<Root, Value>, rhs: Other) -> SQLExpression {
    fatalError("unavailable")
}

/// Unavailable: a typed column compares with a value of its own Swift type.
@available(*, unavailable, message: "a typed column compares only with a value of its own Swift type (an enum column with a case, not its raw value); convert the value, or compare `column.sqlExpression` for an untyped comparison")
@_disfavoredOverload
public func > <Root, Value, Other>(lhs: TypedColumn<Root, Value>, rhs: Other) -> SQLExpression {
    fatalError("unavailable")
}

/// Unavailable: a typed column compares with a value of its own Swift type.
@available(*, unavailable, message: "a typed column compares only with a value of its own Swift type (an enum column with a case, not its raw value); convert the value, or compare `column.sqlExpression` for an untyped comparison")
@_disfavoredOverload
public func >= <Root, Value, Other>(lhs: TypedColumn<Root, Value>, rhs: Other) -> SQLExpression {
    fatalError("unavailable")
}

extension TypedColumn {
    /// Unavailable: the values of `in` have the column's Swift type.
    @available(*, unavailable, message: "the values of a typed column's `in` have the column's Swift type (an enum column takes cases, not raw values); convert them, or use `column.sqlExpression.in(…)`")
    @_disfavoredOverload
    public func `in`<Values: Sequence>(_ values: Values) -> SQLExpression {
        fatalError("unavailable")
    }
}
