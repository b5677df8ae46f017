#if SQLCipher && SystemSQLite
#error("Enable exactly one backend trait: SystemSQLite or SQLCipher, not both (their symbols would collide in one binary).")
#elseif SQLCipher
import CSQLCipher
#elseif SystemSQLite
import CSQLite
#else
#error("Enable one backend trait: SystemSQLite (default) or SQLCipher.")
#endif

/// SQLite's `SQLITE_TRANSIENT` destructor: SQLite copies the bound bytes before the call returns.
/// Swift does not import the C macro, so it is rebuilt from its definition (`(sqlite3_destructor_type)-1`).
@inlinable @inline(__always)
var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// Whether this build links SQLCipher (the `SQLCipher` package trait).
#if SQLCipher
let isSQLCipherBuild = true
#else
let isSQLCipherBuild = false
#endif
