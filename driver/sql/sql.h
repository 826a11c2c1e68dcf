/*
** sql.h — the SQL engine's interface to the ODBC layer.
**
** The engine knows SQL and the reader interface (readers/reader.h); it knows
** nothing of ODBC headers or file formats.  The ODBC layer prepares a
** statement once, describes its result columns and parameters, executes it
** with parameter values and pulls batches of rows from the cursor.
**
**   sql_prepare()  lex, parse, bind names against the source, plan.
**   sql_execute()  open a cursor with the parameter values.
**   sql_cursor_next() the next batch; count 0 means the end.
**
** Errors use lt_error with ODBC SQLSTATEs: 42000 syntax error (message with
** line and column), type error, construct not supported yet, or a write
** (read-only, see sql_prepare); 42S02 unknown table, 42S22 unknown column,
** 07002 wrong number of parameters, 21000 a subquery used as a value
** returned more than one row, 22xxx data errors (22001 text result
** too long, 22003 out of range, 22007 bad date, 22008 date past year 9999,
** 22011 bad SUBSTRING length, 22012 division by zero, 22018 bad number
** text, 22019/22025 bad LIKE escape), 24000 cursor already open, HY008
** cancelled, HY001 out of memory or past the statement's memory limit
** (sql_stmt_set_memory_limit).  docs/sql-types.md lists them with the
** typing rules.
**
** Threads: a statement and its cursor are used by one thread at a time;
** statements on one shared source may run in parallel threads (the engine
** keeps no global state; the source is only read).
*/
#ifndef LT_SQL_H
#define LT_SQL_H

#include <stddef.h>
#include <stdint.h>

#include "../../readers/reader.h"

/* A result column: its description plus where it came from (for
** SQLColAttribute's BASE_TABLE_NAME / BASE_COLUMN_NAME / LABEL). */
typedef struct sql_column {
    lt_column desc;         /* name is the label the client sees */
    const char *base_table; /* "" when computed */
    const char *base_column;
} sql_column;

typedef struct sql_stmt sql_stmt;
typedef struct sql_cursor sql_cursor;

/* Prepare `text` (UTF-8, `len` bytes) against `src` (NULL when the
** connection has no source: only FROM-less SELECTs then work).
** INSERT, UPDATE, DELETE, CREATE, DROP, ALTER ... fail with SQLSTATE 42000
** ("syntax error or access violation": a write to a read-only source is an
** access violation) and the message "Lector is read-only: INSERT is not
** supported" naming the verb. */
int sql_prepare(lt_source *src, const char *text, size_t len, sql_stmt **out,
                lt_error *err);
void sql_stmt_free(sql_stmt *stmt);

/* The memory an execution of the statement may hold in the rows that
** sorting, grouping, joining, DISTINCT and set operations keep (the
** connection's MemoryLimit), in bytes; 0 means no limit.  Past it the
** cursor fails with HY001: "the query needs more than N MiB to sort the
** rows of 'orders' (MemoryLimit=N); ...".  Applies to the next
** sql_execute.  A prepared statement starts with SQL_DEFAULT_MEMORY_LIMIT. */
#define SQL_DEFAULT_MEMORY_LIMIT ((uint64_t)1024 << 20)
void sql_stmt_set_memory_limit(sql_stmt *stmt, uint64_t bytes);

/* Number of `?` markers, in order of appearance. */
uint32_t sql_param_count(const sql_stmt *stmt);
/* The type the statement expects for parameter i (LT_NULL when anything
** goes, e.g. `SELECT ?`). */
lt_type sql_param_type(const sql_stmt *stmt, uint32_t i);

uint32_t sql_column_count(const sql_stmt *stmt);
const sql_column *sql_column_at(const sql_stmt *stmt, uint32_t i);

/* Execute with `nparams` values (must equal sql_param_count; else 07002).
** Text values are copied: the caller's buffers may change afterwards.
** The values' types fix the parameters' types: result columns that depend
** on a parameter are described anew (sql_cursor_column_at).  One cursor at
** a time (24000 while one is open); the cursor must be closed before the
** statement is freed (sql_stmt_free closes a forgotten one). */
int sql_execute(sql_stmt *stmt, const lt_value *params, uint32_t nparams,
                sql_cursor **out, lt_error *err);

/* The next batch of result rows.  The batch belongs to the cursor and stays
** valid until the next call or sql_cursor_close().  Its vectors have the
** types of the result columns (rows of a dynamically typed column may be
** tagged with their own type, reader.h); (*out)->count == 0 means no more
** rows.  After a failure every further call fails with the same error. */
int sql_cursor_next(sql_cursor *cur, lt_batch **out, lt_error *err);
void sql_cursor_close(sql_cursor *cur);

/* The result columns of an open cursor (the statement's, or those given to
** sql_cursor_from_batch). */
uint32_t sql_cursor_column_count(const sql_cursor *cur);
const sql_column *sql_cursor_column_at(const sql_cursor *cur, uint32_t i);

/* A cursor over rows the caller already has (catalog functions, type
** info): takes ownership of `batch` (and frees it on close); `cols` and its
** strings are copied.  NULL when out of memory (the batch is freed then). */
sql_cursor *sql_cursor_from_batch(const sql_column *cols, uint32_t ncols,
                                  lt_batch *batch);

/* The columns `SELECT * FROM <table>` gives (for a view: as its query
** makes them; SQLColumns describes views so), copied with their strings
** into `arena`.  0, or -1 with the error preparing that query gives. */
int sql_describe_table(lt_source *src, uint32_t table, lt_arena *arena, sql_column **cols,
                       uint32_t *ncols, lt_error *err);

/* Ask for cancellation from another thread; the running sql_cursor_next
** returns -1 with SQLSTATE HY008 at its next batch boundary. */
void sql_cursor_cancel(sql_cursor *cur);

#endif /* LT_SQL_H */
