/// A piece of SQL as a module writes it, checked and with its fragments and constants
/// already in place: what the renderer turns into SQL text and bound values on each call.
indirect enum SQLTemplate: Sendable {
    /// How `@{x}` writes its value into the SQL text.
    enum InlineStyle: Sendable {
        /// `@{x}`: strings quoted (unless the module already quoted the reference), nil as NULL.
        case literal
        /// `@{x or ""}`: like `literal`, but nil becomes the empty string.
        case orEmpty
        /// `@{x no ""}`: the caller's text as it is, without quotes (`n desc`).
        case bare
    }

    /// What a `where`/`set`/`trim` does when nothing inside it renders.
    enum VoidBehaviour: Sendable {
        /// Writes nothing and goes on.
        case none
        /// Stops rendering: the SQL so far runs.
        case ignoreAfter
        /// Skips the statement: the method succeeds without running it.
        case quit
    }

    /// One `when` of a `choose`.
    struct Branch: Sendable {
        var condition: DAOExpression
        var expected: Bool
        var body: [SQLTemplate]
        var location: DAOSourceLocation
    }

    /// The settings of a `trim` (and of `where` and `set`, which are trims).
    struct Trim: Sendable {
        var prefix: String
        var prefixOverrides: [String]
        var suffix: String
        var suffixOverrides: [String]
        var onVoid: VoidBehaviour
    }

    /// The settings of a `foreach` element.
    struct Loop: Sendable {
        var item: String
        var collection: DAOPath
        var open: String
        var separator: String
        var close: String
        var reverse: Bool
    }

    case text(String)
    /// `${T}` / `${t}`: the DAO's current table name, as written (an identifier, see `DAOTableName`).
    case tableName(DAOSourceLocation)
    /// `#{x}` / `#{x or ""}`: a bound parameter.
    case bound(DAOPath, orEmpty: Bool, DAOSourceLocation)
    /// `@{x}`: the value written into the SQL text, quoted (raw with `no ""`).
    case inlined(DAOPath, InlineStyle, alreadyQuoted: Bool, DAOSourceLocation)
    /// `<if true=…>` / `<if false=…>`.
    case conditional(DAOExpression, expected: Bool, [SQLTemplate], DAOSourceLocation)
    /// `<choose>`: the first branch whose condition holds, else `otherwise`.
    case choose([Branch], otherwise: [SQLTemplate])
    /// `<foreach>`.
    case loop(Loop, [SQLTemplate], DAOSourceLocation)
    /// `<trim>`, `<where>`, `<set>`.
    case trim(Trim, [SQLTemplate])
}
