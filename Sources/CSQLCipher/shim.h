#ifndef PERSISTANCE_CSQLCIPHER_SHIM_H
#define PERSISTANCE_CSQLCIPHER_SHIM_H
/* sqlite3_key / sqlite3_rekey are only declared when SQLITE_HAS_CODEC is defined. */
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
/* Include SQLCipher's header by its own path, so that a missing pkg-config file can
   never silently pick the plain SQLite header instead. */
#if __has_include(<sqlcipher/sqlite3.h>)
#include <sqlcipher/sqlite3.h>
#else
#error "SQLCipher headers not found: install libsqlcipher-dev (Debian) or sqlcipher (Homebrew)"
#endif
#endif
