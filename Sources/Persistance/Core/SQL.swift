import Foundation

/// Raw SQL written with string interpolation, where every interpolated value is bound as a
/// parameter and never spliced into the text.
///
/// ```swift
/// let name = "O'Brien", ids: [Int64] = [1, 2, 3]
/// let rows = try conn.fetchAll(literal: "SELECT * FROM player WHERE name = \(name) AND id IN \(ids)")
/// try conn.execute(literal: "UPDATE \(identifier: table) SET score = \(score) WHERE id = \(id)")
/// ```
///
/// - A value (`\(name)`) becomes one `?`; `nil` binds NULL.
/// - A sequence of values (`\(ids)`) becomes a parenthesized list, `(?, ?, ?)`, for `IN`;
///   an empty one is `()`, which matches nothing. `Data` and `[UInt8]` are one blob value.
/// - `\(identifier: name)` writes a quoted identifier (a `"` inside is doubled).
/// - `\(otherSQL)` inserts another `SQL` with its bound values.
///
/// Plain text between interpolations is SQL as written: write no `?` or `:name` parameters of
/// your own in it. A value that cannot be stored (`Double.nan`, a `UInt64` above
/// `Int64.max`) or an identifier holding a NUL makes the statement throw when it runs.
/// Connections take it through their `literal:` methods, expressions through
/// `SQLExpression.sql(literal:)`. A string literal without interpolation works too.
public struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The SQL text, with a `?` for each bound value.
    public private(set) var text: String
    /// The values bound to the `?` of `text`, in order.
    public var arguments: StatementArguments {
        var arguments = StatementArguments()
        arguments.storage = .positional(values)
        arguments.conversionError = failure
        return arguments
    }

    private var values: [DatabaseValue] = []
    /// The first value or identifier that could not be written, reported when the SQL runs.
    private var failure: String?

    /// SQL text with no bound value.
    public init(stringLiteral text: String) {
        self.text = text
    }

    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.sql
    }

    /// Builds an `SQL` from a string literal's pieces.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = SQL(stringLiteral: "")

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.text.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql.text += literal
        }

        /// Binds `value` as one parameter (NULL for nil).
        public mutating func appendInterpolation<Value: DatabaseValueConvertible>(_ value: Value?) {
            sql.bind(value)
        }

        /// Binds a blob as one parameter.
        public mutating func appendInterpolation(_ value: Data) {
            sql.bind(value)
        }

        /// Binds a blob as one parameter.
        public mutating func appendInterpolation(_ value: [UInt8]) {
            sql.bind(value)
        }

        /// Writes `(?, ?, …)`, binding each value of `values`: the right side of `IN`.
        public mutating func appendInterpolation<Values: Sequence>(_ values: Values)
        where Values.Element: DatabaseValueConvertible {
            sql.text += "("
            for (index, value) in values.enumerated() {
                if index > 0 { sql.text += ", " }
                sql.bind(value)
            }
            sql.text += ")"
        }

        /// Writes `name` as a quoted identifier.
        public mutating func appendInterpolation(identifier name: String) {
            if name.utf8.contains(0), sql.failure == nil {
                sql.failure = "an interpolated identifier contains a NUL character"
            }
            sql.text += "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }

        /// Inserts `other`, text and bound values.
        public mutating func appendInterpolation(_ other: SQL) {
            sql.text += other.text
            sql.values += other.values
            if sql.failure == nil { sql.failure = other.failure }
        }
    }

    private mutating func bind(_ value: (any DatabaseValueConvertible)?) {
        text += "?"
        values.append(StatementArguments.convert(value, error: &failure))
    }
}

extension Connection {
    /// Runs `sql`, binding its interpolated values. See `SQL`.
    public func execute(literal sql: SQL) throws {
        try execute(sql.text, sql.arguments)
    }

    /// Every row of `sql`, its interpolated values bound.
    public func fetchAll(literal sql: SQL) throws -> [Row] {
        try fetchAll(sql.text, sql.arguments)
    }

    /// The first row of `sql`, its interpolated values bound, or nil when there is none.
    public func fetchOne(literal sql: SQL) throws -> Row? {
        try fetchOne(sql.text, sql.arguments)
    }

    /// A cursor over the rows of `sql`, its interpolated values bound.
    public func fetchCursor(literal sql: SQL) throws -> Cursor<Row> {
        try fetchCursor(sql.text, sql.arguments)
    }

    /// The first column of every row of `sql`, its interpolated values bound, converted to `T`.
    public func fetchAll<T: DatabaseValueConvertible>(_ type: T.Type, literal sql: SQL) throws -> [T] {
        try fetchAll(type, sql.text, sql.arguments)
    }

    /// The first column of the first row of `sql`, its interpolated values bound, converted
    /// to `T`; nil when there is no row.
    public func fetchOne<T: DatabaseValueConvertible>(_ type: T.Type, literal sql: SQL) throws -> T? {
        try fetchOne(type, sql.text, sql.arguments)
    }

    /// A cursor over the first column of each row of `sql`, its interpolated values bound.
    public func fetchCursor<T: DatabaseValueConvertible>(_ type: T.Type, literal sql: SQL) throws -> Cursor<T> {
        try fetchCursor(type, sql.text, sql.arguments)
    }
}
