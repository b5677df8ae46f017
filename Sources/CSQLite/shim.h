#ifndef PERSISTANCE_CSQLITE_SHIM_H
#define PERSISTANCE_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
