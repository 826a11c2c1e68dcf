/*
** reader.h — the one interface between the SQL engine and the file formats.
**
** A reader turns one file format into tables of typed columns.  It never sees
** ODBC or SQL text; the engine never sees a file format.  Everything a reader
** hands out is described by the types in this header.
**
** Life cycle:
**   lt_source_open()  probes the path, picks a reader, opens a *source*: the
**                     file(s) mapped read-only and the table list parsed.  A
**                     source is immutable after open and may be shared by
**                     several statements and threads.
**   scan_open()       starts a scan of one table for the columns wanted.
**   scan_next()       fills the next batch (count 0 at the end).
**   scan_close()      frees the scan.
**   lt_source_close() unmaps and frees everything.
**
** Errors: every fallible call takes an lt_error and returns 0 on success,
** -1 on failure with the error filled (SQLSTATE, message naming the file and
** the place in it).
*/
#ifndef LT_READER_H
#define LT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"

/* ------------------------------------------------------------------------ */
/* Logical types and values                                                  */
/* ------------------------------------------------------------------------ */

typedef enum lt_type {
    LT_NULL = 0,  /* only for values: the type of the NULL literal          */
    LT_BOOL,      /* uint8_t 0/1                                             */
    LT_INT64,     /* int64_t                                                 */
    LT_DOUBLE,    /* double                                                  */
    LT_DECIMAL,   /* lt_int128 scaled by 10^scale (scale in the column)      */
    LT_TEXT,      /* lt_bytes, UTF-8, not NUL-terminated                     */
    LT_BINARY,    /* lt_bytes                                                */
    LT_DATE,      /* int32_t days since 1970-01-01 (proleptic Gregorian)     */
    LT_TIME,      /* int64_t microseconds since midnight                     */
    LT_TIMESTAMP, /* int64_t microseconds since 1970-01-01 00:00:00          */
    LT_GUID       /* lt_guid                                                 */
} lt_type;

typedef __int128 lt_int128;

typedef struct lt_bytes {
    const char *ptr;
    uint32_t len;
} lt_bytes;

typedef struct lt_guid {
    uint32_t data1;
    uint16_t data2, data3;
    uint8_t data4[8];
} lt_guid;

/* A GUID as text, upper-case hexadecimal in the usual groups:
** "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX" (36 characters), or with
** `braced` "{...}" (38, as Access and the ACE driver show it).  buf holds
** at least LT_FMT_GUID_MAX bytes; it is terminated; returns the length.
** (readers/common/guid.c) */
#define LT_FMT_GUID_MAX 39
size_t lt_format_guid(const lt_guid *g, bool braced, char *buf);

/* One value: constants, parameters, single cells. */
typedef struct lt_value {
    lt_type type;       /* LT_NULL for NULL */
    int16_t scale;      /* LT_DECIMAL only */
    union {
        bool b;
        int64_t i64;    /* INT64, TIME, TIMESTAMP */
        int32_t date;
        double f64;
        lt_int128 dec;
        lt_bytes bytes; /* TEXT, BINARY */
        lt_guid guid;
    } u;
} lt_value;

/* ------------------------------------------------------------------------ */
/* Tables and columns                                                        */
/* ------------------------------------------------------------------------ */

/*
** Column size and decimal digits follow ODBC's definitions ("Column Size,
** Decimal Digits" in the ODBC reference) so the driver maps them without
** guessing: TEXT = characters, BINARY = bytes, INT64 = digits of precision
** (3 tinyint, 5 smallint, 10 integer, 19 bigint), DOUBLE = 15 (7 for a
** 4-byte real), DECIMAL = precision with scale = digits after the point,
** TIME/TIMESTAMP scale = fractional-second digits.
*/
typedef struct lt_column {
    char *name;            /* UTF-8, as the source names it */
    lt_type type;
    uint32_t size;         /* ODBC column size, see above */
    int16_t scale;         /* ODBC decimal digits */
    bool nullable;
    bool is_long;          /* memo/long text or blob: LONGVARCHAR/LONGVARBINARY */
    const char *type_name; /* the source's own name of the type: "CHARACTER", "MEMO" */
} lt_column;

typedef struct lt_index {
    char *name;
    bool unique;
    bool primary;
    uint32_t ncols;
    uint32_t *cols;        /* column positions in the table */
} lt_index;

/* A foreign key of a table (SQLForeignKeys): its columns `cols` refer to
** `ref_cols` of table `ref_table` (names, as the source spells them; the
** referenced table need not exist). */
typedef struct lt_foreign_key {
    char *name;            /* constraint or relationship name; NULL if none */
    char *ref_table;
    uint32_t ncols;
    uint32_t *cols;        /* column positions in this table */
    char **ref_cols;       /* ncols names in ref_table */
    int16_t update_rule;   /* SQL_CASCADE (0), SQL_RESTRICT (1), SQL_SET_NULL (2), */
    int16_t delete_rule;   /* SQL_NO_ACTION (3), SQL_SET_DEFAULT (4), as ODBC numbers them */
} lt_foreign_key;

typedef struct lt_table {
    char *name;            /* UTF-8 table name as SQL sees it */
    const char *kind;      /* "TABLE", "VIEW", "SYSTEM TABLE", "LINK" */
    uint32_t ncols;
    lt_column *cols;
    uint32_t nindexes;
    lt_index *indexes;
    uint32_t nforeign;
    lt_foreign_key *foreign;
    /* Views (kind "VIEW"): the SELECT the view runs, in the engine's SQL
    ** (the engine binds it as a derived table named like the view); owned by
    ** the reader.  NULL for tables.  A view whose query the reader cannot
    ** give sets `error` instead. */
    const char *query;
    int64_t row_estimate;  /* -1 when unknown */
    /* Non-NULL: the table is listed (a folder holds it) but cannot be read;
    ** the text says why, and every scan_open of it fails with it (HY000).
    ** Owned by the reader.  Its columns may be empty. */
    const char *error;
} lt_table;

/* ------------------------------------------------------------------------ */
/* Batches: how rows move from a reader up through the engine                */
/* ------------------------------------------------------------------------ */

#define LT_BATCH_ROWS 2048

/* One column of a batch.  nulls[i] != 0 marks row i NULL (its value slot is
** then unspecified).  Text and binary point into the mapped file when the
** bytes are already right, else into the batch's arena. */
typedef struct lt_vector {
    lt_type type;
    int16_t scale;          /* LT_DECIMAL */
    uint8_t *nulls;         /* capacity entries */
    union {
        uint8_t *b;         /* BOOL */
        int64_t *i64;       /* INT64, TIME, TIMESTAMP */
        int32_t *date;      /* DATE */
        double *f64;        /* DOUBLE */
        lt_int128 *dec;     /* DECIMAL */
        lt_bytes *bytes;    /* TEXT, BINARY */
        lt_guid *guid;      /* GUID */
        void *any;
    } v;
    /*
    ** Dynamic typing (SQLite: a column declared INTEGER may hold 'abc').
    ** tags == NULL: every non-NULL row has the vector's type (all readers but
    ** SQLite, and most SQLite batches).  Else tags[i] == LT_NULL (0) means
    ** row i is an ordinary row of the vector's type, and any other lt_type
    ** means row i's value is other[i], of that type (its text or binary bytes
    ** live where the vector's would: the mapped file or the batch arena); v's
    ** slot i is then unspecified and nulls[i] is 0.  A reader allocates both
    ** arrays (capacity entries, tags zeroed) in the batch arena when a batch
    ** first needs them; lt_batch_reset() sets them back to NULL.
    ** Consumers: lt_vector_row_type() says the type of one row; converting a
    ** tagged value follows the ODBC rules from its own type (text 'abc' to
    ** SQL_C_SLONG is 22018, as sqliteodbc would convert it).
    */
    uint8_t *tags;
    lt_value *other;
} lt_vector;

/* The type of row `row` of `v`: the vector's, unless the row is tagged. */
static inline lt_type lt_vector_row_type(const lt_vector *v, uint32_t row)
{
    return (v->tags != NULL && v->tags[row] != LT_NULL) ? (lt_type)v->tags[row] : v->type;
}

typedef struct lt_batch {
    uint32_t count;         /* rows filled */
    uint32_t capacity;      /* rows allocated per vector */
    uint32_t ncols;
    lt_vector *cols;
    lt_arena arena;         /* decoded text of this batch; reset per fill */
} lt_batch;

/* Allocate a batch whose vectors have the given types (scales may be NULL).
** Returns NULL when out of memory. */
lt_batch *lt_batch_new(uint32_t ncols, const lt_type *types,
                       const int16_t *scales, uint32_t capacity);
void lt_batch_free(lt_batch *batch);
/* Forget the rows, the tags and the arena's contents; keep the memory. */
void lt_batch_reset(lt_batch *batch);
/* Give `v` (a vector of `batch`) its tags and other arrays, tags zeroed,
** in the batch arena, unless it has them: a reader's first tagged row.
** Returns -1 out of memory (both left NULL). */
int lt_vector_tag_arrays(lt_batch *batch, lt_vector *v);
/* Read row `row` of a vector as one value, tags honoured (text points where
** the vector's does). */
void lt_vector_get(const lt_vector *v, uint32_t row, lt_value *out);
/* Read row `row` of column `col` as one value (text points into the batch). */
void lt_batch_get(const lt_batch *batch, uint32_t col, uint32_t row,
                  lt_value *out);
/* Store a value into row `row` of column `col`, converting nothing: the
** value's type must be the vector's (or LT_NULL).  Text and binary are
** copied into the batch arena.  Returns -1 when out of memory. */
int lt_batch_set(lt_batch *batch, uint32_t col, uint32_t row,
                 const lt_value *value);

/* ------------------------------------------------------------------------ */
/* Options (connection-string keywords a reader may honour)                  */
/* ------------------------------------------------------------------------ */

typedef struct lt_option {
    const char *key;
    const char *value;
} lt_option;

typedef struct lt_options {
    size_t count;
    const lt_option *items;
} lt_options;

/* Case-insensitive look-up; NULL when absent. */
const char *lt_options_get(const lt_options *opts, const char *key);
/* "1", "yes", "true", "on" (any case) -> true; absent -> dflt. */
bool lt_options_bool(const lt_options *opts, const char *key, bool dflt);

/* ------------------------------------------------------------------------ */
/* Scans                                                                     */
/* ------------------------------------------------------------------------ */

typedef enum lt_pred_op {
    LT_PRED_EQ, LT_PRED_NE, LT_PRED_LT, LT_PRED_LE, LT_PRED_GT, LT_PRED_GE,
    LT_PRED_IN,       /* values[0..nvalues) */
    LT_PRED_BETWEEN,  /* values[0] .. values[1] inclusive */
    LT_PRED_IS_NULL, LT_PRED_IS_NOT_NULL
} lt_pred_op;

typedef enum lt_pushdown {
    LT_PUSH_UNUSED = 0, /* the reader ignored it: the engine filters */
    LT_PUSH_SUPERSET,   /* rows failing it may still come: engine re-checks */
    LT_PUSH_EXACT       /* only rows satisfying it come back */
} lt_pushdown;

/* A simple predicate "column op constant(s)" the engine offers a reader. */
typedef struct lt_pred {
    uint32_t col;            /* column position in the table */
    lt_pred_op op;
    uint32_t nvalues;
    const lt_value *values;
    lt_pushdown use;         /* set by scan_open */
} lt_pred;

typedef struct lt_scan_spec {
    uint32_t table;          /* position in source->tables */
    uint32_t ncols;
    const uint32_t *cols;    /* table column positions, in batch order */
    uint32_t npreds;
    lt_pred *preds;          /* readers set preds[i].use */
    int64_t limit;           /* -1: all rows; else a hint, the engine limits */
} lt_scan_spec;

typedef struct lt_source lt_source;
typedef struct lt_scan lt_scan;

/* ------------------------------------------------------------------------ */
/* Readers                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct lt_reader {
    const char *name;                   /* "dbf" */
    /* 0 = not this format, 100 = certainly.  `head` holds up to 512 first
    ** bytes; `path` may be a directory (then head_len is 0). */
    int (*probe)(const uint8_t *head, size_t head_len, const char *path);
    /* Opens path (a file, or a directory when the reader supports that);
    ** on success *out's base has reader, tables and ntables filled. */
    int (*open)(const char *path, const lt_options *opts, lt_source **out,
                lt_error *err);
    void (*close)(lt_source *src);
    /* The batch's vectors have the types of the wanted columns, in spec
    ** order; the spec (and its arrays) outlive the scan. */
    int (*scan_open)(lt_source *src, const lt_scan_spec *spec, lt_scan **out,
                     lt_error *err);
    /* Fill `batch` (reset by the reader) with up to batch->capacity rows;
    ** batch->count == 0 means the end.  */
    int (*scan_next)(lt_scan *scan, lt_batch *batch, lt_error *err);
    void (*scan_close)(lt_scan *scan);
    /* Optional (NULL): exact row count without decoding, or -1. */
    int64_t (*count_rows)(lt_source *src, uint32_t table, lt_error *err);
    /* Optional (NULL): a table the source does not list but makes on demand
    ** from its name, such as a workbook range "Sheet1$A1:D100".  Called by
    ** lt_source_find_table() for a name no listed table has.  Returns 1 with
    ** *table set: a position in src->tables at or past src->ntables (not
    ** listed by SQLTables), whose lt_table stays valid and unchanged until
    ** the source closes, the same position for the same name again; 0 when
    ** `name` is not such a name; -1 when it is one but cannot be made (err:
    ** a malformed range, one outside the sheet).  Thread-safe: the reader
    ** guards what it adds with its own lock; src->tables never moves. */
    int (*find_extra)(lt_source *src, const char *name, size_t name_len,
                      uint32_t *table, lt_error *err);
    /* Optional (NULL): fill a listed table's columns on first use.  A reader
    ** whose open lists tables by name only (a workbook types a worksheet's
    ** columns from its cells, which costs a walk of the sheet) leaves their
    ** ncols/cols/row_estimate unset and fills them here; callers go through
    ** lt_source_describe() before reading a table's columns, row estimate
    ** or error (SQLTables, which reads names only, need not).  Idempotent
    ** and thread-safe (the reader's own lock); returns 0 when the table is
    ** described, or -1 (err) when it cannot be: a table unreadable for good
    ** also gets its `error` set, once. */
    int (*describe)(lt_source *src, uint32_t table, lt_error *err);
} lt_reader;

/* The base every reader's source struct starts with. */
/* How the source's own engine compares text, which the SQL engine imitates
** so that a query means what it means in the source's native tool. */
typedef enum lt_dialect {
    LT_DIALECT_STANDARD = 0, /* binary text comparison, LIKE with % and _ */
    LT_DIALECT_SQLITE,       /* SQLite: LIKE ignores ASCII case; affinity rules */
    LT_DIALECT_ACCESS        /* Access: text compares ignore case; LIKE also
                                takes *, ?, # and [...] */
} lt_dialect;

/* The base every reader's source struct starts with. */
struct lt_source {
    const lt_reader *reader;
    char *path;              /* as opened */
    uint32_t ntables;
    lt_table *tables;
    lt_dialect dialect;      /* set by the reader's open (0: standard) */
};

/* The list of readers, NULL-terminated (readers/registry.c). */
extern const lt_reader *const lt_readers[];

/* Probe `path` with every reader and open it with the most confident one.
** A missing or unreadable path fails with 08001 and names the path. */
int lt_source_open(const char *path, const lt_options *opts, lt_source **out,
                   lt_error *err);
void lt_source_close(lt_source *src);

/* Case-insensitive table look-up; -1 when absent.  A name no listed table
** has goes to the reader's find_extra (a range of a worksheet). */
int64_t lt_source_find_table(const lt_source *src, const char *name,
                             size_t name_len);
/* The same, with the reason when absent: 42S02 "unknown table", or the
** reader's error for a name it understands but cannot serve (a workbook
** range: 42000 malformed, HY000 outside the sheet).  Returns -1 with err
** filled.  Both describe the table found (lt_source_describe): one that
** proves unreadable is still returned, its `error` set; only a failure
** such as running out of memory returns -1. */
int64_t lt_source_find_table_err(const lt_source *src, const char *name,
                                 size_t name_len, lt_error *err);

/* Make table `table`'s columns, row estimate and error readable: the
** reader's describe (above) when it has one, else nothing to do.  Returns 0,
** or -1 (err); a table unreadable for good has `error` set and returns -1. */
int lt_source_describe(const lt_source *src, uint32_t table, lt_error *err);

/* Frees what lt_table owns (names, columns, indexes, foreign keys), for
** readers that build their tables with malloc (readers/common/table.c); the
** table is zeroed. */
void lt_table_clear(lt_table *table);

#endif /* LT_READER_H */
