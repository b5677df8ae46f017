#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// The SQLite engine this build links, and the features it has, detected at run time.
///
/// The `SystemSQLite` trait links the system SQLite (3.40 on Debian 12, with UPSERT,
/// RETURNING, JSON and FTS5); the `SQLCipher` trait links SQLCipher, whose engine may be
/// much older (SQLite 3.15 in Debian's libsqlcipher 3.4). Code that needs newer SQL checks here.
public enum SQLiteEngine {
    /// The SQLite version string, e.g. `3.40.1`.
    public static let version = String(cString: sqlite3_libversion())
    /// The SQLite version as a number, e.g. `3040001`.
    public static let versionNumber = Int(sqlite3_libversion_number())
    /// Whether this build links SQLCipher.
    public static let isSQLCipher = isSQLCipherBuild
    /// The SQLCipher version string (`PRAGMA cipher_version`), or nil with plain SQLite.
    public static let sqlcipherVersion: String? = {
        guard isSQLCipher, let connection = try? Connection.inMemory() else { return nil }
        return try? connection.fetchOne(String.self, "PRAGMA cipher_version")
    }()

    /// `INSERT … ON CONFLICT DO UPDATE` (SQLite 3.24).
    public static let supportsUpsert = versionNumber >= 3_024_000
    /// Window functions (SQLite 3.25).
    public static let supportsWindowFunctions = versionNumber >= 3_025_000
    /// Whether a double-quoted name that matches no column is an error (SQLite 3.29+, where
    /// every connection turns the string-literal fallback off). On older engines SQLite reads
    /// such a name as a string, so a misspelt column compares as a constant.
    public static let rejectsUnknownQuotedIdentifiers = versionNumber >= 3_029_000
    /// `RETURNING` clauses (SQLite 3.35).
    public static let supportsReturning = versionNumber >= 3_035_000
    /// The JSON functions (`json_extract`, `json_type`, `json_each`, …). Found by running
    /// them on a sample, so a build that declares them but lacks them is not mistaken.
    public static let supportsJSON: Bool = {
        guard let connection = try? Connection.inMemory() else { return false }
        let probe = #"SELECT json_type(json_extract('{"a":[1]}', '$."a"'), '$[0]') FROM json_each('[0]')"#
        return (try? connection.fetchOne(String.self, probe)) == "integer"
    }()
    /// Whether the authorizer reports a read of a table none of whose columns a statement
    /// uses (`SELECT count(*) FROM t`, `SELECT 1 FROM t`). SQLite 3.15 does not, so value
    /// observations find such reads in the statements' bytecode instead (`BytecodeReads`).
    static let reportsReadsWithoutColumns: Bool = {
        guard let connection = try? Connection.inMemory(), (try? connection.execute("CREATE TABLE probe(a)")) != nil,
              let handle = try? connection.sqliteHandle()
        else { return false }
        var reported = false
        withUnsafeMutablePointer(to: &reported) { reported in
            sqlite3_set_authorizer(handle, { context, action, table, _, _, _ in
                if action == SQLITE_READ, let table, String(cString: table) == "probe" {
                    context?.assumingMemoryBound(to: Bool.self).pointee = true
                }
                return SQLITE_OK
            }, reported)
            _ = try? connection.prepare("SELECT 1 FROM probe")
            sqlite3_set_authorizer(handle, nil, nil)
        }
        return reported
    }()
    /// FTS5 full-text search tables. Found by creating one: SQLite looks a virtual table's
    /// module up when the statement runs, not when it is prepared.
    public static let supportsFTS5: Bool = {
        guard let connection = try? Connection.inMemory() else { return false }
        return (try? connection.execute("CREATE VIRTUAL TABLE temp.probe USING fts5(content)")) != nil
    }()
}
