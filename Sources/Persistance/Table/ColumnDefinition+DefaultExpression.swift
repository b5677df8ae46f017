extension ColumnDefinition {
    /// An SQL expression a column's `DEFAULT` computes for each row, such as the current
    /// time, where `default:` stores one fixed value.
    ///
    /// ```swift
    /// .text("created_at").defaulting(to: .currentTimestamp)
    /// @Column(defaultExpression: .currentTimestamp) var createdAt: Date?
    /// ```
    /// The table's inserts write it in place of NULL (a nil property). SQLite cannot add a
    /// column with such a default to a table that exists: add it in a migration step.
    public struct DefaultExpression: Sendable, Hashable {
        /// The expression's SQL text.
        public let sql: String

        /// An expression written in SQL. It becomes part of the schema as it is: never build
        /// it from user input.
        public init(sql: String) {
            self.sql = sql
        }

        /// The UTC date and time as text, `yyyy-MM-dd HH:mm:ss` (`CURRENT_TIMESTAMP`): what a
        /// `Date` stored with the `.text` date strategy reads.
        public static let currentTimestamp = DefaultExpression(sql: "CURRENT_TIMESTAMP")
        /// The UTC date as text, `yyyy-MM-dd` (`CURRENT_DATE`).
        public static let currentDate = DefaultExpression(sql: "CURRENT_DATE")
        /// The UTC time as text, `HH:mm:ss` (`CURRENT_TIME`).
        public static let currentTime = DefaultExpression(sql: "CURRENT_TIME")
    }

    /// This column, with `expression` as its `DEFAULT` instead of a fixed value.
    public func defaulting(to expression: DefaultExpression) -> ColumnDefinition {
        var definition = self
        definition.defaultValue = nil
        definition.defaultExpression = expression
        return definition
    }

    /// The `DEFAULT` clause's value: the expression, parenthesized, if there is one.
    var defaultExpressionSQL: String? {
        defaultExpression.map { "(" + $0.sql + ")" }
    }
}
