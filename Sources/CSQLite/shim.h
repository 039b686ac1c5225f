#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

// Wrappers for what Swift cannot call in SQLite: the SQLITE_TRANSIENT destructor is a macro
// that casts -1 to a function pointer.
#include <sqlite3.h>

// SQLite copies the text before returning, so a Swift String may be passed directly.
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

#endif
