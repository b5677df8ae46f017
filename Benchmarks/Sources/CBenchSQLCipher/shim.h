#ifndef PERSISTANCE_BENCH_CSQLCIPHER_SHIM_H
#define PERSISTANCE_BENCH_CSQLCIPHER_SHIM_H
/* sqlite3_key is only declared when SQLITE_HAS_CODEC is defined. */
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
/* SQLCipher's header by its own path: a missing pkg-config file must never pick plain SQLite. */
#if __has_include(<sqlcipher/sqlite3.h>)
#include <sqlcipher/sqlite3.h>
#else
#error "SQLCipher headers not found: install libsqlcipher-dev (Debian) or sqlcipher (Homebrew)"
#endif
#endif
