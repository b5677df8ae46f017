/// How `@Table` names the columns of properties that `@Column("name")` does not name.
public enum ColumnNaming: Sendable {
    /// The column is named as the property: `createdAt`.
    case asWritten
    /// The column is the property's name in snake case: `createdAt` → `created_at`,
    /// `userID` → `user_id`, `htmlURL` → `html_url`.
    case snakeCase
}
