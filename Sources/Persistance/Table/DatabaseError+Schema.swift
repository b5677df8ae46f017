extension DatabaseError.Kind {
    /// The database file differs from a declared table in a way that opening cannot fix
    /// safely: a column of another type, a NOT NULL column without a default that the file
    /// lacks, a column the file requires that the declaration no longer has, another primary
    /// key, an index of the same name on other columns. The error names the table and the
    /// column (or index); the open changed nothing.
    public static let schemaMismatch = DatabaseError.Kind(rawValue: "schemaMismatch")
}

extension DatabaseError {
    /// A `.schemaMismatch` error for `column` (or index) of `table`.
    static func schemaMismatch(table: String, column: String?, _ reason: String) -> DatabaseError {
        let subject = column.map { "table \"\(table)\", column \"\($0)\"" } ?? "table \"\(table)\""
        return DatabaseError(
            kind: .schemaMismatch, message: "\(subject) does not match its declaration: \(reason)", column: column)
    }
}
