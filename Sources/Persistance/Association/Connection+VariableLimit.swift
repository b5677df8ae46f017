#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

extension Connection {
    /// The most parameters one statement may have (999 before SQLite 3.32, 32,766 after).
    @usableFromInline
    func variableLimit() throws -> Int {
        Int(sqlite3_limit(try sqliteHandle(), SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }
}
