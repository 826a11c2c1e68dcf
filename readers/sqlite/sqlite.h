/*
** sqlite.h — the SQLite 3 database file reader.
**
** Reads the file format itself (no libsqlite3): the header, table and index
** b-trees, overflow chains, records of every serial type, sqlite_schema and
** the CREATE TABLE text.  A source is one database file; its tables are the
** rows of sqlite_schema of type 'table' (views and virtual tables are listed
** and fail when scanned, see README.md).  The file is mapped read-only and
** never written or locked.
*/
#ifndef LT_SQLITE_H
#define LT_SQLITE_H

#include "../reader.h"

extern const lt_reader lt_sqlite_reader;

/*
** Open a database held in memory, for the fuzzer and for tests that damage
** files on purpose.  `data` must outlive the source.  `name` (NULL:
** "memory") names it in messages.  No -wal file is looked for.
*/
int lt_sqlite_open_memory(const uint8_t *data, size_t len, const char *name,
                          const lt_options *opts, lt_source **out,
                          lt_error *err);

#endif /* LT_SQLITE_H */
