#ifndef PERSISTANCE_CSQLITE_SHIM_H
#define PERSISTANCE_CSQLITE_SHIM_H
#include <sqlite3.h>
/* Stops SQLite from reading a double-quoted name that matches no column as a string
   literal (the "DQS" misfeature), so a misspelt identifier is an error instead of a
   silent constant. sqlite3_db_config is variadic, which Swift cannot call; this wrapper
   can be. Returns 1 when the engine supports the switch (SQLite 3.29+), 0 otherwise. */
static inline int persistance_disable_double_quoted_strings(sqlite3 *db) {
#if defined(SQLITE_DBCONFIG_DQS_DML) && defined(SQLITE_DBCONFIG_DQS_DDL)
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
    return 1;
#else
    (void)db;
    return 0;
#endif
}
#endif
