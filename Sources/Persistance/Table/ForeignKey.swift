/// A column's reference to a row of another table (`REFERENCES`): SQLite refuses a value that
/// names no row there, and applies `onDelete` / `onUpdate` when that row goes or changes key.
///
/// ```swift
/// .integer("team_id", notNull: true).references("team", onDelete: .cascade)
/// ```
/// Foreign keys are enforced on every connection the library opens (`Connection.Options.foreignKeys`).
/// A referencing column gets an index of its own (`<table>_<column>_fkey`), so deleting a
/// referenced row does not scan the referencing table, unless a declared index starts with it.
public struct ForeignKey: Sendable, Hashable {
    /// What happens to the referencing rows when the referenced row is deleted or its key changes.
    public enum Action: String, Sendable, Hashable {
        /// The change is refused when rows still refer to the old row (checked at the end of
        /// the statement); SQLite's default.
        case noAction = "NO ACTION"
        /// The change is refused at once when rows still refer to the old row.
        case restrict = "RESTRICT"
        /// The referencing column becomes NULL.
        case setNull = "SET NULL"
        /// The referencing column takes its default.
        case setDefault = "SET DEFAULT"
        /// The referencing rows are deleted (on delete) or follow the new key (on update).
        case cascade = "CASCADE"
    }

    /// The referenced table's name, unquoted.
    public var table: String
    /// The referenced column; nil for the referenced table's primary key.
    public var column: String?
    /// What deleting the referenced row does.
    public var onDelete: Action
    /// What changing the referenced row's key does.
    public var onUpdate: Action

    /// A reference to `column` of `table` (its primary key when nil).
    public init(_ table: String, column: String? = nil, onDelete: Action = .noAction, onUpdate: Action = .noAction) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }

    /// The `REFERENCES` clause of a column definition, its names quoted by `quote`.
    func sql<Dialect: SQLDialect>(_ quote: inout IdentifierQuoter<Dialect>) -> String {
        var sql = "REFERENCES " + quote(table)
        if let column { sql += "(" + quote(column) + ")" }
        if onDelete != .noAction { sql += " ON DELETE " + onDelete.rawValue }
        if onUpdate != .noAction { sql += " ON UPDATE " + onUpdate.rawValue }
        return sql
    }
}

extension ColumnDefinition {
    /// This column, referring to `column` of `table` (its primary key when nil).
    public func references(
        _ table: String, column: String? = nil, onDelete: ForeignKey.Action = .noAction,
        onUpdate: ForeignKey.Action = .noAction
    ) -> ColumnDefinition {
        var definition = self
        definition.foreignKey = ForeignKey(table, column: column, onDelete: onDelete, onUpdate: onUpdate)
        return definition
    }
}

extension ColumnDefinition {
    /// This column, referring to the primary key of `record`'s table.
    public func references<Referenced: TableRecord>(
        _ record: Referenced.Type, onDelete: ForeignKey.Action = .noAction, onUpdate: ForeignKey.Action = .noAction
    ) -> ColumnDefinition {
        references(Referenced.table.name, column: Referenced.table.primaryKey, onDelete: onDelete, onUpdate: onUpdate)
    }
}
