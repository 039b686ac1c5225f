#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

// Non-variadic wrappers for what Swift cannot call in SQLite: a variadic function, and the
// SQLITE_TRANSIENT destructor (a macro that casts -1 to a function pointer).
#include <sqlite3.h>

// A closing connection leaves the WAL to the next automatic checkpoint instead of running one.
static inline int csqlite_disable_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// No memory statistics, process-wide (before SQLite is first used; SQLITE_MISUSE after): they
// take a global mutex at every allocation SQLite makes, and chat reads none of them.
static inline int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// SQLite copies the text before returning, so a Swift String may be passed directly.
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

// The same for a blob.
static inline int csqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

#endif
