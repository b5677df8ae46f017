#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// Runs one `INSERT` (or `REPLACE`) statement and returns the rowid of the row it
    /// inserted (the last one, when it inserted several), or nil when it inserted none (an
    /// `INSERT OR IGNORE` that met a conflict, an `INSERT … SELECT` that selected nothing).
    ///
    /// The rowid is read right after the statement, on this connection, so it is this
    /// statement's own; unlike reading ``lastInsertRowID`` later, it is never another
    /// block's row on a shared database.
    /// ```swift
    /// let id = try await db.write { conn in
    ///     try conn.executeInsert("INSERT INTO player(name) VALUES (?)", ["Ann"])
    /// }
    /// ```
    /// - Throws: `.invalidArguments` when `sql` is not an insert; the statement's errors.
    public func executeInsert(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws -> Int64? {
        guard Self.isInsert(sql) else {
            throw DatabaseError(
                kind: .invalidArguments, message: "executeInsert runs INSERT and REPLACE statements only", sql: sql)
        }
        try cachedStatement(sql).execute(arguments)
        let handle = try sqliteHandle()
        return sqlite3_changes(handle) > 0 ? sqlite3_last_insert_rowid(handle) : nil
    }

    /// Whether `sql` starts with `INSERT`, `REPLACE` or `WITH` (a common table expression
    /// before an insert), after white space, in any case.
    private static func isInsert(_ sql: String) -> Bool {
        let first = sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
        return first == "INSERT" || first == "REPLACE" || first == "WITH"
    }
}
