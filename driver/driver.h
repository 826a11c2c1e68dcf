/*
** driver.h — the ODBC layer's handles and the calls its files share.
**
** Handles (environment, connection, statement, descriptor) are plain structs
** with a common head: the handle type, a lock and the diagnostics.  Every
** entry point locks its handle with lt_enter() and ends with lt_leave().
** Lock order, so threads cannot deadlock: a connection before any of its
** statements, an environment only after a connection, a descriptor before
** its statement; a statement call never takes another handle's lock (it
** reads the connection's source, fixed while connected, without one).
** SQLCancel takes only the statement's cancel_lock.
**
** Files of driver/ and what each owns:
**   handles.c   SQLAllocHandle, SQLFreeHandle, SQLFreeStmt, lt_enter/leave,
**               string arguments in and out (lt_str_in, lt_str_out)
**   diag.c      the diagnostics area; SQLGetDiagRec, SQLGetDiagField
**   attr.c      environment, connection and statement attributes
**   connect.c   SQLConnect, SQLDriverConnect, SQLBrowseConnect, SQLDisconnect,
**               keywords
**   desc.c      descriptors: SQLGet/SetDescField/Rec, SQLCopyDesc, SQLBindCol
**   execute.c   SQLPrepare, SQLExecute, SQLExecDirect, SQLBindParameter,
**               SQLNumParams, SQLDescribeParam, SQLParamData, SQLPutData,
**               SQLNumResultCols, SQLDescribeCol, SQLColAttribute, SQLRowCount,
**               SQLMoreResults, SQLNativeSql, SQLCancel, SQLEndTran,
**               SQLCloseCursor, SQLGet/SetCursorName, lt_stmt_open_cursor
**   fetch.c     SQLFetch, SQLFetchScroll, SQLExtendedFetch, SQLGetData,
**               SQLSetPos (position only), block cursors, the static cursor's
**               row cache
**   convert.c   logical value <-> C types (convert.h)
**   types.c     logical column -> ODBC SQL type, size, names (types.h)
**   info.c      SQLGetInfo, SQLGetFunctions
**   catalog.c   SQLTables, SQLColumns, SQLStatistics, SQLPrimaryKeys,
**               SQLSpecialColumns, SQLForeignKeys, SQLProcedures,
**               SQLProcedureColumns, SQLTablePrivileges, SQLColumnPrivileges,
**               SQLGetTypeInfo
**   unicode.c   the W entry points: convert SQLWCHAR <-> UTF-8, call ANSI
**   wide.c      SQLWCHAR <-> UTF-8 (wide.h), whatever SQLWCHAR's width
**
** The core works in UTF-8: ANSI entry points take UTF-8.  The shared object
** is linked with -Bsymbolic-functions and exports only SQL* symbols, so a
** call from SQLFooW to SQLFoo stays inside the driver (never the DM's SQLFoo).
*/
#ifndef LT_DRIVER_H
#define LT_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef _WIN32
#include <windows.h> /* Windows' sql.h uses its types without including it */
#endif
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>

#include "../readers/common/thread.h"
#include "../readers/reader.h"
#include "sql/sql.h"

#define LT_DRIVER_NAME "Lector"
#define LT_DRIVER_VERSION "00.01.0000" /* SQL_DRIVER_VER form: ##.##.#### */

/* What SQLGetData supports (SQLGetInfo SQL_GETDATA_EXTENSIONS): any column,
** in any order, bound columns too, and rows of a block cursor positioned
** with SQLSetPos(SQL_POSITION) (fetch.c keeps the whole rowset readable). */
#define LT_GETDATA_EXTENSIONS \
    (SQL_GD_ANY_COLUMN | SQL_GD_ANY_ORDER | SQL_GD_BOUND | SQL_GD_BLOCK)

/* SQL_ATTR_TXN_ISOLATION's initial value: 0, as SQLGetInfo says
** (SQL_TXN_CAPABLE is SQL_TC_NONE, SQL_DEFAULT_TXN_ISOLATION 0).  Setting a
** level is accepted and remembered: nothing is written, so every level
** holds. */
#define LT_TXN_ISOLATION_DEFAULT 0

/* Bookmarks (SQL_ATTR_USE_BOOKMARKS on a static cursor) are the 1-based row
** number as a 4-byte integer: SQL_C_BOOKMARK, or SQL_C_VARBOOKMARK of 4
** bytes. */
#define LT_BOOKMARK_SIZE 4

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */
/* ------------------------------------------------------------------------ */

typedef struct lt_diag_rec {
    char sqlstate[6];
    SQLINTEGER native;
    char *message;           /* UTF-8, "[Lector]..." prefix included */
    SQLLEN row_number;       /* SQL_NO_ROW_NUMBER when not row-specific */
    SQLINTEGER column_number;/* SQL_NO_COLUMN_NUMBER likewise */
} lt_diag_rec;

typedef struct lt_diag {
    lt_diag_rec *recs;
    SQLSMALLINT count;
    SQLSMALLINT capacity;
    SQLRETURN retcode;       /* SQL_DIAG_RETURNCODE of the last call */
    SQLLEN cursor_row_count;
    SQLINTEGER dynamic_function_code;
    const char *dynamic_function;
} lt_diag;

/* ------------------------------------------------------------------------ */
/* Handles                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct lt_handle {
    SQLSMALLINT type;        /* SQL_HANDLE_ENV, _DBC, _STMT, _DESC */
    uint32_t magic;          /* LT_MAGIC while alive: catches stale handles */
    lt_mutex lock;
    lt_diag diag;
} lt_handle;

#define LT_MAGIC 0x4C656374u /* "Lect" */

typedef struct lt_env lt_env;
typedef struct lt_dbc lt_dbc;
typedef struct lt_stmt lt_stmt;
typedef struct lt_desc lt_desc;

struct lt_env {
    lt_handle h;
    SQLINTEGER odbc_version;     /* SQL_OV_ODBC3 / SQL_OV_ODBC2 / 3_80 */
    SQLINTEGER connection_pooling;
    SQLINTEGER cp_match;
    SQLINTEGER output_nts;
    lt_dbc *dbcs;                /* list of connections */
};

/* Connection-string keywords kept after connect (owned copies). */
typedef struct lt_keywords {
    size_t count;
    lt_option *items;            /* key/value, malloc'ed strings */
} lt_keywords;

struct lt_dbc {
    lt_handle h;
    lt_env *env;
    lt_dbc *next;                /* in env->dbcs */
    lt_stmt *stmts;              /* list of statements */
    SQLUINTEGER stmt_counter;    /* numbers statements for cursor names */
    lt_desc *descs;              /* explicitly allocated descriptors */
    bool connected;
    lt_source *source;           /* the opened data file or folder */
    lt_keywords keywords;        /* from odbc.ini and the connection string */
    char *dsn;                   /* "" when connected without one */
    char *database;              /* the path given */
    char *driver_name;           /* DRIVER= as given, for the out string */
    char *browse_partial;        /* SQLBrowseConnect's keywords so far */
    uint64_t memory_limit;       /* MemoryLimit= in bytes, for each statement (0: none) */
    /* attributes */
    SQLUINTEGER access_mode;     /* always SQL_MODE_READ_ONLY */
    SQLUINTEGER autocommit;      /* SQL_AUTOCOMMIT_ON; OFF accepted */
    SQLUINTEGER login_timeout;
    SQLUINTEGER connection_timeout;
    SQLUINTEGER txn_isolation;
    SQLUINTEGER metadata_id;
    SQLUINTEGER async_enable;
    SQLUINTEGER quiet_mode_set;
    SQLPOINTER quiet_mode;
    SQLUINTEGER packet_size;
    SQLUINTEGER trace;
    char *tracefile;
    char *current_catalog;
};

/* One descriptor record (ODBC "Descriptor Field Identifiers"). */
typedef struct lt_desc_rec {
    SQLSMALLINT type;            /* SQL_DESC_TYPE (verbose) */
    SQLSMALLINT concise_type;    /* SQL_DESC_CONCISE_TYPE */
    SQLSMALLINT datetime_interval_code;
    SQLINTEGER datetime_interval_precision;
    SQLULEN length;
    SQLLEN octet_length;
    SQLSMALLINT precision;
    SQLSMALLINT scale;
    SQLSMALLINT nullable;
    SQLSMALLINT parameter_type;  /* IPD */
    SQLPOINTER data_ptr;         /* ARD/APD */
    SQLLEN *indicator_ptr;       /* ARD/APD */
    SQLLEN *octet_length_ptr;    /* ARD/APD */
    SQLSMALLINT unnamed;
    char *name;                  /* IRD/IPD */
    /* IRD-only informational fields (from the result column) */
    char *label, *base_column_name, *base_table_name, *table_name;
    char *type_name, *local_type_name, *literal_prefix, *literal_suffix;
    SQLINTEGER display_size;
    SQLSMALLINT num_prec_radix, unsigned_, case_sensitive, searchable;
    SQLSMALLINT auto_unique_value, fixed_prec_scale, updatable;
} lt_desc_rec;

typedef enum lt_desc_kind { LT_ARD, LT_APD, LT_IRD, LT_IPD } lt_desc_kind;

struct lt_desc {
    lt_handle h;
    lt_dbc *dbc;
    lt_stmt *stmt;               /* owner of an implicit descriptor, else NULL */
    lt_desc *next;               /* in dbc->descs when explicit */
    lt_desc_kind kind;
    SQLSMALLINT alloc_type;      /* SQL_DESC_ALLOC_AUTO / _USER */
    /* header fields */
    SQLULEN array_size;
    SQLUSMALLINT *array_status_ptr;
    SQLLEN *bind_offset_ptr;
    SQLINTEGER bind_type;        /* SQL_BIND_BY_COLUMN or row size */
    SQLULEN *rows_processed_ptr;
    SQLSMALLINT count;           /* highest bound/described record */
    SQLSMALLINT capacity;
    lt_desc_rec *recs;           /* recs[0] is the bookmark record */
};

/* Statement states of the ODBC state-transition tables (S1..S7, simplified
** to what a read-only driver needs). */
typedef enum lt_stmt_state {
    LT_STMT_ALLOCATED,           /* S1 */
    LT_STMT_PREPARED,            /* S2/S3: prepared, no cursor */
    LT_STMT_CURSOR,              /* S5/S6: executed, cursor open */
} lt_stmt_state;

/* Where SQLGetData is inside a column of the current row. */
/* Where SQLGetData is inside one value between pieces (convert.c's to
** read; zero before the first piece). */
typedef struct lt_piece {
    SQLLEN offset;               /* how much of the value's form went out */
    SQLLEN wide_left;            /* SQL_C_WCHAR: 1 + units still to come, once known */
    SQLWCHAR low_surrogate;      /* owed to the next piece: a pair was split */
} lt_piece;

typedef struct lt_getdata {
    SQLUSMALLINT column;         /* 0: none since the last fetch */
    lt_piece piece;
    bool done;                   /* the whole value went: next call is NO_DATA */
} lt_getdata;

struct lt_stmt {
    lt_handle h;
    lt_dbc *dbc;
    lt_stmt *next;               /* in dbc->stmts */
    lt_stmt_state state;
    /* descriptors: implicit ones, and the application's current choice */
    lt_desc ard_implicit, apd_implicit, ird, ipd;
    lt_desc *ard, *apd;
    /* the statement */
    char *text;
    sql_stmt *prepared;          /* NULL for catalog results */
    sql_cursor *cursor;          /* open cursor, or NULL */
    SQLLEN row_count;            /* SQLRowCount: -1 for SELECT */
    /* the current rowset: position and rows (see fetch.c) */
    void *rows;                  /* fetch.c's cursor cache, opaque here */
    SQLLEN rowset_start;         /* 1-based row number of the rowset's first row; 0 before */
    SQLULEN rowset_size;         /* rows in the current rowset */
    SQLULEN rowset_row;          /* row within the rowset SQLGetData reads (SQLSetPos) */
    lt_getdata getdata;
    /* attributes */
    SQLULEN cursor_type;         /* SQL_CURSOR_FORWARD_ONLY / _STATIC */
    SQLULEN concurrency;         /* SQL_CONCUR_READ_ONLY */
    SQLULEN cursor_scrollable;
    SQLULEN cursor_sensitivity;
    SQLULEN max_rows;            /* 0 = all */
    SQLULEN max_length;
    SQLULEN query_timeout;
    SQLULEN noscan;
    SQLULEN retrieve_data;
    SQLULEN use_bookmarks;
    SQLULEN keyset_size;
    SQLULEN async_enable;
    SQLULEN metadata_id;
    SQLULEN enable_auto_ipd;
    SQLPOINTER fetch_bookmark_ptr;
    SQLULEN simulate_cursor;
    SQLULEN row_bind_type_dummy; /* kept in ard->bind_type; see attr.c */
    volatile int cancel_requested;
    /* added by the core (handles.c .. fetch.c) */
    lt_mutex cancel_lock;        /* guards `cursor` against SQLCancel from
                                 ** another thread (which takes no h.lock) */
    bool prepared_explicitly;    /* SQLPrepare, not SQLExecDirect: SQLExecute
                                 ** may run it again after the cursor closes */
    SQLULEN rowset_size_odbc2;   /* SQL_ROWSET_SIZE, used by SQLExtendedFetch */
    SQLULEN last_fetch_size;     /* rowset size of the previous fetch */
    char *cursor_name;           /* SQLSetCursorName; NULL: generated */
    SQLUINTEGER stmt_number;     /* for the generated cursor name */
    void *dae;                   /* execute.c's data-at-execution state */
};

/* ------------------------------------------------------------------------ */
/* Entry and exit of every API function                                      */
/* ------------------------------------------------------------------------ */

/* Validate `handle` as `type`, lock it and clear its diagnostics.  NULL when
** the handle is not a live handle of that type (the caller returns
** SQL_INVALID_HANDLE). */
lt_handle *lt_enter(SQLHANDLE handle, SQLSMALLINT type);
/* Set up and tear down the common head (type, magic, lock, diagnostics). */
void lt_handle_init(lt_handle *h, SQLSMALLINT type);
void lt_handle_destroy(lt_handle *h);
/* Record `rc` as the handle's return code, unlock, return rc. */
SQLRETURN lt_leave(lt_handle *h, SQLRETURN rc);
/* As lt_enter/lt_leave without clearing diagnostics (for SQLGetDiag*). */
lt_handle *lt_enter_keep_diag(SQLHANDLE handle, SQLSMALLINT type);
/* Unlock without recording rc as SQL_DIAG_RETURNCODE (SQLGetDiag*). */
SQLRETURN lt_leave_keep_diag(lt_handle *h, SQLRETURN rc);

/* Copy NUL-terminated UTF-8 `s` into an application buffer of `buflen`
** bytes (NULL or 0: length only), always terminating when buflen > 0 and
** never cutting a UTF-8 sequence.  *outlen (either width; may be NULL) gets
** the full length in bytes.  Returns SQL_SUCCESS, or SQL_SUCCESS_WITH_INFO
** after posting 01004 on `h` when truncated.  Negative buflen: HY090. */
SQLRETURN lt_str_out(lt_handle *h, const char *s, SQLPOINTER buf,
                     SQLLEN buflen, SQLSMALLINT *outlen16,
                     SQLINTEGER *outlen32);
/* Length of an input string argument: SQL_NTS -> strlen; -1 when invalid
** (negative other than SQL_NTS; NULL with a non-zero length). */
SQLLEN lt_str_in_len(const SQLCHAR *s, SQLLEN len);
/* Malloc'ed NUL-terminated copy of an input string argument; NULL when
** `s` is NULL or out of memory (*oom set). */
char *lt_str_in(const SQLCHAR *s, SQLLEN len, bool *oom);

/* ------------------------------------------------------------------------ */
/* Diagnostics (diag.c)                                                      */
/* ------------------------------------------------------------------------ */

void lt_diag_clear(lt_diag *diag);
/* Append a record; the message gets the "[Lector]" prefix.  Never fails
** visibly: out of memory drops the message text, not the record. */
void lt_diag_post(lt_handle *h, const char *sqlstate, SQLINTEGER native,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Post with a row/column number (SQL_DIAG_ROW_NUMBER/COLUMN_NUMBER). */
void lt_diag_post_at(lt_handle *h, const char *sqlstate, SQLLEN row,
                     SQLINTEGER column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Post `err` and return SQL_ERROR. */
SQLRETURN lt_diag_error(lt_handle *h, const lt_error *err);
/* The standard message of a SQLSTATE ("String data, right truncated"). */
const char *lt_sqlstate_text(const char *sqlstate);

/* ------------------------------------------------------------------------ */
/* Statements (execute.c, fetch.c)                                           */
/* ------------------------------------------------------------------------ */

/* Make `cur` the statement's open cursor: closes any previous one, fills
** the IRD from the cursor's columns, sets the state to LT_STMT_CURSOR.
** Catalog functions end here (SQLExecute ends in the same code): a catalog
** result replaces the statement, so any prepared statement is dropped.
** Takes ownership (NULL: HY001 posted, SQL_ERROR). */
SQLRETURN lt_stmt_open_cursor(lt_stmt *stmt, sql_cursor *cur);
/* Close the cursor, forget the rowset (SQLCloseCursor, SQLFreeStmt CLOSE). */
void lt_stmt_close_cursor(lt_stmt *stmt);
/* fetch.c: forget the cached rows of the cursor (called on close). */
void lt_fetch_free(lt_stmt *stmt);
/* execute.c: drop any data-at-execution state (SQLCancel, close, free). */
void lt_dae_free(lt_stmt *stmt);
/* SQL_ATTR_ROW_NUMBER: the current row's number, 0 when none (fetch.c). */
SQLULEN lt_stmt_row_number(const lt_stmt *stmt);
/* Allocate and free a statement (handles.c; SQLDisconnect frees them). */
void lt_stmt_free(lt_stmt *stmt);
/* Free an explicitly allocated descriptor: statements using it go back to
** their implicit one (handles.c; also SQLDisconnect). */
void lt_desc_free(lt_desc *desc);

/* Descriptor record `n` (1-based; 0 = bookmark), growing the descriptor
** as needed; NULL when out of memory. */
lt_desc_rec *lt_desc_record(lt_desc *desc, SQLSMALLINT n);
void lt_desc_init(lt_desc *desc, lt_dbc *dbc, lt_desc_kind kind,
                  SQLSMALLINT alloc_type);
void lt_desc_clear(lt_desc *desc);
/* Drop records above `count` (freeing their strings), set COUNT. */
void lt_desc_truncate(lt_desc *desc, SQLSMALLINT count);
/* Free the strings one record owns and zero it. */
void lt_desc_rec_clear(lt_desc_rec *rec);
/* Set a record's type fields from a concise C or SQL type (SQL_DESC_TYPE,
** CONCISE_TYPE, DATETIME_INTERVAL_CODE), as SQLBindCol and
** SQLBindParameter do. */
void lt_desc_set_type(lt_desc_rec *rec, SQLSMALLINT concise);
/* Is `ctype` a C type the driver accepts in SQLBindCol/SQLGetData? */
bool lt_ctype_valid(SQLSMALLINT ctype);
/* Is `type` an SQL type an IPD (SQLBindParameter) may name? */
bool lt_sqltype_valid(SQLSMALLINT type);

#endif /* LT_DRIVER_H */
