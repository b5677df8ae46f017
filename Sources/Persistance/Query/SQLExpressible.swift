/// A value that can stand in an SQL expression: a `Column`, an `SQLExpression`, or your own
/// type that describes itself as an expression.
///
/// Every expressible can also be selected (`Query.select`) and ordered by (`Query.order`,
/// ascending unless you write `.desc`).
public protocol SQLExpressible: SQLSelectable, SQLOrderable {
    /// The expression this value stands for.
    var sqlExpression: SQLExpression { get }
}
