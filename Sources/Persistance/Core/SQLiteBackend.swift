#if SQLCipher && SystemSQLite && !DocumentationBuild
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

/// Whether both backend traits are on, which only the `DocumentationBuild` trait allows: symbol-graph
/// extraction enables every trait, and documents the SQLCipher variant. A binary of such a build
/// would link both libraries, so its connections refuse to open (see `Connection.init`).
#if SQLCipher && SystemSQLite
let linksBothBackends = true
#else
let linksBothBackends = false
#endif
