/// One token of SQL as the query builder composes it, kept unrendered until a statement
/// is built: values stay values and identifiers stay names, so composing expressions
/// never splices a value into SQL text.
enum SQLPiece: Sendable {
    /// SQL written by the library itself: keywords, operators and punctuation.
    case text(String)
    /// An identifier, quoted when rendered.
    case identifier(String)
    /// A value, rendered as a `?` parameter and bound.
    case value(DatabaseValue)
    /// A raw SQL fragment written by the programmer, with its own arguments.
    indirect case fragment(String, StatementArguments)
    /// Something that cannot be rendered (a value that cannot be stored, an invalid name);
    /// rendering throws this error.
    indirect case invalid(DatabaseError)
}
