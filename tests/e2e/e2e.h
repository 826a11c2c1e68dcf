/*
** e2e.h — the end-to-end client: a plain ODBC application over a driver
** manager (unixODBC or iODBC), never the driver's own headers.
**
** The same sources build twice, once against each driver manager; the only
** thing that differs is sizeof(SQLWCHAR) (2 with unixODBC, 4 with iODBC), so
** wide text always goes through e2e_wide_to_utf8()/e2e_utf8_to_wide().
**
** Each command (corpus, readonly, threads, errors, catalog, pieces) prints one line
** per failure and ends with the summary line "N passed, M failed"; the exit
** status is 0 only when M is 0.
*/
#ifndef E2E_H
#define E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sql.h>
#include <sqlext.h>

/* iODBC (3.52.9) serves an ANSI SQLDescribeCol from a Unicode driver's
** SQLDescribeColW and cuts the converted UTF-8 name to as many bytes as the
** name has characters; only the W call gives non-ASCII names intact there. */
#ifdef _IODBCUNIX_H
#define E2E_ANSI_NAMES_EXACT 0
#else
#define E2E_ANSI_NAMES_EXACT 1
#endif

/* ------------------------------------------------------------------------ */
/* Options and results                                                       */
/* ------------------------------------------------------------------------ */

typedef struct e2e_config {
    const char *driver;   /* odbcinst.ini section: "Lector" or "Lector-iODBC" */
    const char *dsn;      /* odbc.ini DSN naming dsn_file, or NULL */
    const char *dsn_file; /* the DSN's Database, relative to the format dir */
    const char *corpus;   /* the corpus root (holds dbf/, sqlite/ ...) */
    const char *format;   /* format folder for corpus/readonly: "dbf" */
    int iterations;       /* threads: rounds per thread (default 20) */
    int verbose;
} e2e_config;

/* Counts checks; every failure is printed as it happens. */
typedef struct e2e_tally {
    int passed;
    int failed;
} e2e_tally;

/* Print "FAIL <what>: <why>" and count a failure. */
void e2e_fail(e2e_tally *t, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void e2e_pass(e2e_tally *t, const e2e_config *cfg, const char *what);
/* Print the summary line; return the process exit status. */
int e2e_summary(const e2e_tally *t);

/* ------------------------------------------------------------------------ */
/* Growable byte strings                                                     */
/* ------------------------------------------------------------------------ */

typedef struct e2e_buf {
    char *ptr;
    size_t len, cap;
} e2e_buf;

void e2e_buf_add(e2e_buf *b, const void *data, size_t len);
void e2e_buf_adds(e2e_buf *b, const char *s);
void e2e_buf_printf(e2e_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void e2e_buf_clear(e2e_buf *b);
void e2e_buf_free(e2e_buf *b);
/* ptr, NUL-terminated (never NULL). */
const char *e2e_buf_str(e2e_buf *b);

/* ------------------------------------------------------------------------ */
/* ODBC helpers                                                              */
/* ------------------------------------------------------------------------ */

/* The diagnostics of a handle: the first record's SQLSTATE and all
** messages joined by " | ". */
typedef struct e2e_diag {
    char state[6];
    char text[4096];
} e2e_diag;

void e2e_diag_get(SQLSMALLINT type, SQLHANDLE h, e2e_diag *out);
/* True when any record of the handle has this SQLSTATE. */
bool e2e_diag_has(SQLSMALLINT type, SQLHANDLE h, const char *state);

SQLHENV e2e_env_new(void);
/* Connect with SQLDriverConnect (ANSI, or W when `wide`).  Returns NULL on
** failure with the diagnostics in `diag`. */
SQLHDBC e2e_connect(SQLHENV env, const char *connstr, bool wide, e2e_diag *diag);
/* Connect to a DSN with SQLConnect. */
SQLHDBC e2e_connect_dsn(SQLHENV env, const char *dsn, e2e_diag *diag);
void e2e_disconnect(SQLHDBC dbc);
/* "Driver=<driver>;Database=<path>[;<extra>]", braces around values that
** need them. */
void e2e_connstr(e2e_buf *out, const char *driver, const char *path,
                 const char *extra);

/* `SELECT * FROM "<table>"` with the name's quotes doubled. */
void e2e_select_all(e2e_buf *sql, const char *table);

/* Execute with SQLExecDirectW (wide) or SQLExecDirect. */
SQLRETURN e2e_exec(SQLHSTMT st, const char *sql, bool wide);

/* Wide <-> UTF-8 whatever sizeof(SQLWCHAR) is.  `nunits` is a count of
** SQLWCHAR units.  Invalid sequences become U+FFFD. */
void e2e_wide_to_utf8(e2e_buf *out, const SQLWCHAR *w, size_t nunits);
/* Returns a malloc'd NUL-terminated wide string. */
SQLWCHAR *e2e_utf8_to_wide(const char *s);

/* ------------------------------------------------------------------------ */
/* Values                                                                    */
/* ------------------------------------------------------------------------ */

/* How a column's values are fetched and compared, from its SQL type. */
typedef enum e2e_kind {
    K_INT, K_DOUBLE, K_DECIMAL, K_TEXT, K_BINARY, K_DATE, K_TIME,
    K_TIMESTAMP, K_BIT, K_OTHER
} e2e_kind;

e2e_kind e2e_kind_of(SQLSMALLINT sql_type);
const char *e2e_kind_name(e2e_kind k);

/* A result column as SQLDescribeCol(W) describes it. */
typedef struct e2e_col {
    char name[512];       /* UTF-8 */
    SQLSMALLINT type;
    SQLULEN size;
    SQLSMALLINT digits;
    SQLSMALLINT nullable;
    e2e_kind kind;
} e2e_col;

/* Describe every result column (SQLDescribeColW when `wide`).  Returns the
** number of columns or -1 with `diag` filled. */
int e2e_describe(SQLHSTMT st, bool wide, e2e_col **cols, e2e_diag *diag);

/* One cell in canonical oracle-CSV form (README "Canonical CSV form"). */
typedef struct e2e_cell {
    bool null;
    e2e_buf text;
    /* Only under e2e_dynamic: the typed fetch could not convert the value
    ** (22003, 22018, 22007, 07006) and it was fetched again as SQL_C_WCHAR;
    ** or the typed fetch cut a fraction off (01S07). */
    bool as_text;
    bool truncated;
} e2e_cell;

/* True while checking a format whose cells may hold values of another type
** than their column (SQLite's dynamic typing: 'abc' in an INTEGER column, a
** blob in a TEXT column).  The client then does what a careful application
** does: when the typed SQLGetData cannot convert a value it asks again for
** text, and e2e_cell_match() compares with the oracle's rendering of the
** stored value (README "Dynamic typing" in tests/e2e). */
extern bool e2e_dynamic;

/* Fetch column `col` (1-based) of the current row with SQLGetData by its
** kind: integers as SQL_C_SBIGINT, doubles as SQL_C_DOUBLE, decimals as
** SQL_C_CHAR, text as SQL_C_WCHAR and binary as SQL_C_BINARY in `piece`-byte
** pieces, dates and timestamps as structs, bits as SQL_C_BIT.  Checks the
** piece protocol (01004, lengths, the final SQL_NO_DATA).  Returns 0, or -1
** with a description of what went wrong in `why`. */
/* The piece size the data checks use (--piece; default 64 bytes). */
extern size_t e2e_piece;

int e2e_get_cell(SQLHSTMT st, SQLUSMALLINT col, e2e_kind kind, size_t piece,
                 e2e_cell *out, e2e_buf *why);

/* Render a SQL_C_CHAR value of the given kind in canonical form (binary
** arrives as hex digits and becomes \x + lowercase hex). */
void e2e_render_char(e2e_kind kind, const char *s, size_t len, e2e_buf *out);

/* Compare a fetched cell with an oracle CSV field by the README's rules:
** numbers with relative tolerance 1e-9, timestamps as instants, NULL and ""
** distinct, everything else byte for byte. */
bool e2e_cell_equal(e2e_kind kind, bool got_null, const char *got, size_t got_len,
                    bool want_null, const char *want, size_t want_len);
/* e2e_cell_equal, plus under e2e_dynamic the renderings of a value whose
** storage class differs from its column's: a cell fetched again as text
** compares as text; a blob delivered as ODBC's hex characters equals the
** oracle's \x form; bytes of a SQL_C_BINARY fetch (`raw_binary`: got is
** "\x..." hex) or the characters of a SQL_C_CHAR one equal a non-blob
** oracle value when they spell it; numbers compare with the tolerance even
** in text columns (the oracle writes Python's repr, the driver SQLite's
** or its own shortest form); a cell cut by 01S07 equals the oracle value
** truncated toward zero. */
bool e2e_cell_match(e2e_kind kind, const e2e_cell *got, bool raw_binary,
                    bool want_null, const char *want, size_t want_len);

/* ------------------------------------------------------------------------ */
/* Oracle files                                                              */
/* ------------------------------------------------------------------------ */

typedef struct e2e_field {
    char *s;          /* NUL-terminated (may hold earlier NULs: use len) */
    size_t len;
    bool quoted;      /* "" is an empty string, an empty unquoted field NULL */
} e2e_field;

typedef struct e2e_row {
    size_t n;
    e2e_field *f;
} e2e_row;

typedef struct e2e_table {
    size_t nrows;     /* rows[0] is the header */
    e2e_row *rows;
} e2e_table;

/* RFC 4180 CSV (fields may span lines).  Returns -1 when unreadable. */
int e2e_csv_load(const char *path, e2e_table *out);
/* Tab-separated, no quoting, header line first. */
int e2e_tsv_load(const char *path, e2e_table *out);
void e2e_table_free(e2e_table *t);
/* Index of the header column named `name`, or -1. */
int e2e_table_col(const e2e_table *t, const char *name);

/* One table of a corpus folder to check: MANIFEST.tsv with EXPECT.tsv
** applied. */
/* EXPECT_KNOWN_FAILURE (tests/corpus/OVERRIDES.tsv only): Lector is known
** to differ from the oracle here, for the reason the row gives; the run
** fails if the table starts to match, so the list stays true.
** EXPECT_ROWS_ANY_ORDER (OVERRIDES.tsv only, "rows-any-order"): the rows
** must match the oracle's as a multiset: for a view whose SELECT leaves the
** order to the engine (a join without ORDER BY), the oracle's order is its
** own query plan's. */
typedef enum e2e_expect {
    EXPECT_ROWS, EXPECT_ERROR, EXPECT_ROWS_OR_ERROR, EXPECT_KNOWN_FAILURE,
    EXPECT_ROWS_ANY_ORDER
} e2e_expect;

typedef struct e2e_case {
    char *file;       /* relative to the format folder */
    char *path;       /* absolute */
    char *table;      /* table name (the file's stem when MANIFEST says -) */
    char *csv;        /* absolute oracle CSV path, NULL when the oracle failed */
    char *connect;    /* extra connection-string keywords, "" when none */
    e2e_expect expect;
} e2e_case;

/* Read <corpus>/<format>/MANIFEST.tsv (+ EXPECT.tsv).  Returns the number of
** cases, or -1 with a message on stderr. */
int e2e_cases_load(const char *corpus, const char *format, e2e_case **out);
void e2e_cases_free(e2e_case *cases, int n);
/* The file name without directory and extension. */
void e2e_stem(const char *path, char *out, size_t cap);
/* The file name without directory. */
const char *e2e_basename(const char *path);

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */
/* ------------------------------------------------------------------------ */

/* Fetch a whole result as canonical text (all rows, typed SQLGetData in
** `piece`-byte pieces) and fold it into a 64-bit FNV-1a checksum.  Returns
** 0, or -1 with `why` set.  `rows` receives the row count when not NULL. */
int e2e_result_checksum(SQLHSTMT st, size_t piece, uint64_t *sum, long *rows,
                        e2e_buf *why);

int e2e_cmd_corpus(const e2e_config *cfg);
int e2e_cmd_readonly(const e2e_config *cfg);
int e2e_cmd_threads(const e2e_config *cfg);
int e2e_cmd_errors(const e2e_config *cfg);
int e2e_cmd_catalog(const e2e_config *cfg);
int e2e_cmd_pieces(const e2e_config *cfg);
int e2e_cmd_workbook(const e2e_config *cfg);

#endif /* E2E_H */
