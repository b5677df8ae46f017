/// One token of SQL as the query builder composes it, kept unrendered until a statement
/// is built: values stay values and identifiers stay names, so composing expressions
/// never splices a value into SQL text.
enum SQLPiece: Sendable {
    /// SQL written by the library itself: keywords, operators and punctuation.
    case text(String)
    /// A reference to a column by name: quoted when rendered, and qualified with the table's
    /// name where the statement needs it (see `SQLRenderer.appendColumn(_:)`).
    case column(String)
    /// A reference to column `name` of the table (or alias) `table`: always qualified, for
    /// queries that join tables and for subqueries that refer to an outer query's table.
    indirect case qualifiedColumn(table: String, name: String)
    /// A boolean constant, written as the dialect writes it.
    case boolean(Bool)
    /// A query, written as its `SELECT` in parentheses (`IN (…)`, `EXISTS (…)`), with its
    /// own column scope.
    indirect case subquery(QueryClauses)
    /// A value, rendered as a `?` parameter and bound.
    case value(DatabaseValue)
    /// A list of values, rendered as their parameters separated by commas (`?, ?, ?`) and
    /// bound: one piece however long the list (an `IN` list of thousands of keys), and one
    /// token of the statement's shape, so that lists of the same length share a cached text.
    case values([DatabaseValue])
    /// A raw SQL fragment written by the programmer, with its own arguments.
    indirect case fragment(String, StatementArguments)
    /// Something that cannot be rendered (a value that cannot be stored, an invalid name);
    /// rendering throws this error.
    indirect case invalid(DatabaseError)
    /// Another expression, rendered in its place. An operator refers to its operands this way
    /// instead of copying their pieces, so a deep expression (`!(!(!…))`) builds in time
    /// linear in its depth.
    case expression(SQLExpressionNode)
}

extension SQLPiece {
    /// A reference to column `name`, qualified with `qualifier` (a table's name or alias) when
    /// there is one.
    static func column(_ name: String, qualifiedBy qualifier: String?) -> SQLPiece {
        guard let qualifier else { return .column(name) }
        return .qualifiedColumn(table: qualifier, name: name)
    }

    /// The value `encode` stores for `value`, to bind; or the error converting it, naming
    /// `column`, thrown when the statement renders.
    static func bound<Value>(
        _ value: Value, encodedBy encode: (Value) throws -> DatabaseValue, column: String
    ) -> SQLPiece {
        do {
            return .value(try encode(value))
        } catch let error as DatabaseError {
            return .invalid(error)
        } catch {
            return .invalid(DatabaseError.encoding(String(describing: error), column: column))
        }
    }
}
