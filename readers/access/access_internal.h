/*
** access_internal.h — what the files of the Access reader share.
**
** header.c   the database definition page (page 0): version, page size,
**            the RC4-masked header block, password, page encoding, code page
** page.c     page numbers to bytes, row slots of data pages, usage maps
** tdef.c     table definition pages: columns, deleted columns, indexes
** row.c      walking a table's rows (cursor) and locating fields in a row
** lval.c     memo and OLE values: inline, single-page and multi-page LVALs
** text.c     Jet 3 code-page text, Jet 4 UTF-16LE and compressed unicode
** value.c    column types to logical types and values
** catalog.c  MSysObjects: tables, system tables, linked tables, queries
** query.c    MSysQueries: saved SELECT and UNION queries rebuilt as SQL
** relation.c MSysRelationships: foreign keys
** reader.c   the lt_reader: probe, open, scans, count
**
** Every number read from the file is untrusted: page numbers are checked
** against the page count, offsets against their page or row, and every
** chain is bounded by the page count.
*/
#ifndef LT_ACCESS_INTERNAL_H
#define LT_ACCESS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/platform.h"
#include "../common/thread.h"
#include "access.h"

/* ---- constants of the format ---------------------------------------------- */

/* Header byte 0x14. */
#define MDB_VER_JET3 0
#define MDB_VER_JET4 1
#define MDB_VER_ACE12 2 /* Access 2007 */
#define MDB_VER_ACE14 3 /* Access 2010 */
#define MDB_VER_ACE15 4 /* Access 2013 */
#define MDB_VER_ACE16 5 /* Access 2016 */
#define MDB_VER_ACE17 6 /* Access 2019 / 365 */

#define MDB_MAX_PAGE 4096

/* First byte of a page. */
#define MDB_PAGE_DATA 0x01
#define MDB_PAGE_TDEF 0x02
#define MDB_PAGE_USAGE 0x05

/* Row slot flags (high bits of a row offset). */
#define MDB_ROW_DELETED 0x8000
#define MDB_ROW_OVERFLOW 0x4000
#define MDB_ROW_OFFSET 0x1fff

/* Column types. */
#define MDB_BOOL 0x01
#define MDB_BYTE 0x02
#define MDB_INT 0x03
#define MDB_LONG 0x04
#define MDB_MONEY 0x05
#define MDB_FLOAT 0x06
#define MDB_DOUBLE 0x07
#define MDB_DATETIME 0x08
#define MDB_BINARY 0x09
#define MDB_TEXT 0x0a
#define MDB_OLE 0x0b
#define MDB_MEMO 0x0c
#define MDB_REPID 0x0f
#define MDB_NUMERIC 0x10
#define MDB_COMPLEX 0x12
#define MDB_BIGINT 0x13
#define MDB_DATETIMEEXT 0x14

/* Column flags (descriptor byte). */
#define MDB_COL_FIXED 0x01
#define MDB_COL_UPDATABLE 0x02
#define MDB_COL_AUTONUM 0x04
#define MDB_COL_HYPERLINK 0x80
/* Extended flags (Jet 4+ descriptor byte 16). */
#define MDB_COLX_COMPRESSED 0x01
#define MDB_COLX_CALCULATED 0xc0

/* Calculated values carry this many header bytes before the value. */
#define MDB_CALC_HEADER 20

/* Offsets that differ between Jet 3 and Jet 4 (and later). */
typedef struct mdb_format {
    uint32_t page_size;
    uint32_t data_nrows;      /* data page: row count, then the slots */
    uint32_t count_size;      /* a row's column and var-column counts */
    /* TDEF header block */
    uint32_t tdef_nrows, tdef_type, tdef_nvar, tdef_ncols, tdef_nidx;
    uint32_t tdef_nreal, tdef_usage, tdef_real_start, real_entry;
    /* column descriptor */
    uint32_t col_entry, col_number, col_var_index, col_flags, col_fixed;
    uint32_t col_length, col_prec, col_scale, col_codepage;
    uint32_t name_len_size;   /* column and index names: length bytes */
    /* index definitions after the names */
    uint32_t real_def, real_cols, real_flags;
    uint32_t logical_def, logical_real, logical_type;
} mdb_format;

extern const mdb_format mdb_jet3_format;
extern const mdb_format mdb_jet4_format;

/* ---- the database (header.c, page.c) -------------------------------------- */

typedef struct mdb_db {
    const char *path;          /* for messages */
    const uint8_t *data;       /* the file, or `decoded` */
    size_t size;
    uint8_t *decoded;          /* owned copy when pages are RC4-encoded */
    const mdb_format *fmt;
    uint32_t page_size;
    uint32_t npages;           /* whole pages in the file */
    int version;               /* MDB_VER_* */
    bool jet3;
    int codepage;              /* Jet 3 text: the header's code page (or 0) */
    int codepage_option;       /* CodePage= given: overrides everything */
    uint8_t header[MDB_MAX_PAGE]; /* page 0 with its masked block unmasked */
} mdb_db;

/* Check page 0 and fill `db`; the password and the encryption are checked
** here (28000 for a missing or wrong PWD). */
int mdb_header_parse(mdb_db *db, const char *path, const uint8_t *data,
                     size_t size, const lt_options *opts, lt_error *err);
void mdb_db_free(mdb_db *db);

/* RC4 of `len` bytes (in may equal out). */
void mdb_rc4(const uint8_t *key, size_t keylen, const uint8_t *in, uint8_t *out,
             size_t len);

/* The bytes of page `pgno`, or NULL when there is no such page. */
static inline const uint8_t *mdb_page(const mdb_db *db, uint32_t pgno)
{
    if (pgno >= db->npages)
        return NULL;
    if (pgno == 0)
        return db->header;
    return db->data + (size_t)pgno * db->page_size;
}

/* "'path' is corrupt: page N: <what>" as HY000; returns -1. */
int mdb_corrupt(const mdb_db *db, uint32_t pgno, const char *what, lt_error *err);

/* Number of row slots of data page `page` (checked to fit the page), or -1. */
int mdb_page_nrows(const mdb_db *db, const uint8_t *page, uint32_t pgno,
                   lt_error *err);

/* Slot `slot` of a data page: the row's raw offset word (flags included)
** and its bounds [start, end).  Deleted slots are not checked further. */
int mdb_page_slot(const mdb_db *db, const uint8_t *page, uint32_t pgno,
                  uint32_t slot, uint16_t *raw, uint32_t *start, uint32_t *end,
                  lt_error *err);

/* The row a 4-byte row pointer (page << 8 | slot) names, on a data page. */
int mdb_find_row(const mdb_db *db, uint32_t ptr, const uint8_t **row,
                 uint32_t *len, lt_error *err);

/* The data pages a usage map (a row pointer) lists, ascending, in a malloc'ed
** array. */
int mdb_usage_pages(const mdb_db *db, uint32_t map_ptr, uint32_t **pages,
                    uint32_t *count, lt_error *err);

/* ---- tables (tdef.c) -------------------------------------------------------- */

/* The values of one complex column, read from its flat table at open:
** entry texts grouped by complex-value id (complex.c). */
typedef struct mdb_complex {
    const char *kind;          /* "ATTACHMENT", "MULTIVALUE", "VERSIONHISTORY" */
    const char *sep;           /* between the entries of one row */
    uint32_t n;
    int32_t *ids;              /* ascending; equal ids keep flat-table order */
    char **texts;
    char *error;               /* non-NULL: unreadable, scans fail with it */
} mdb_complex;

typedef struct mdb_column {
    uint8_t type;              /* MDB_* */
    uint8_t flags, xflags;
    uint8_t precision, scale;  /* Numeric */
    uint16_t number;           /* null-mask bit; deleted columns leave gaps */
    uint16_t var_index;        /* entry of the variable-offset table */
    uint16_t fixed_offset;     /* in the fixed area */
    uint16_t length;           /* bytes in the row (fixed), or the maximum */
    int codepage;              /* Jet 3 text columns */
    bool fixed;
    bool calculated;
    int32_t complex_id;        /* complex columns: key of MSysComplexColumns */
    const mdb_complex *cx;     /* complex columns: their values (NULL: none) */
} mdb_column;

typedef struct mdb_table {
    uint32_t tdef_page;
    uint32_t ncols;
    mdb_column *cols;          /* in table order (by column number) */
    uint32_t nvar;             /* > 0: rows carry a variable-offset table */
    uint32_t row_count;        /* as the TDEF says */
    uint32_t usage_map;        /* row pointer to the table's usage map */
    /* Read on the first scan or count, not at open (reader.c, under the
    ** source's lock): the pages the usage map lists, and the live rows
    ** their slots hold. */
    bool pages_read, counted;
    uint32_t *pages;
    uint32_t npages;
    int64_t live_rows;
} mdb_table;

/* Read the TDEF chain starting at `page` into `mt` and the columns and
** indexes of `t` (whose name the caller sets). */
int mdb_tdef_read(const mdb_db *db, uint32_t page, mdb_table *mt, lt_table *t,
                  lt_error *err);
void mdb_table_free(mdb_table *mt);

/* ---- rows (row.c) ----------------------------------------------------------- */

typedef struct mdb_row {
    const uint8_t *p;          /* the row's bytes */
    uint32_t len;
    uint32_t pgno, slot;       /* where it lives, for messages */
    uint32_t ncols;            /* columns the row was written with */
    const uint8_t *nulls;      /* null mask: bit set = not NULL */
    uint32_t nvar;             /* variable columns the row holds */
    uint32_t fixed_end;        /* end of the fixed area */
    uint32_t var_table;        /* Jet 4: row offset of var entry 0 */
    uint16_t var_off[257];     /* Jet 3: var offsets decoded (nvar + 1) */
} mdb_row;

/* Parse the row's counts, null mask and variable-offset table. */
int mdb_row_crack(const mdb_db *db, const mdb_table *mt, mdb_row *row,
                  lt_error *err);

/* Where column `col`'s value is in the row: 1 with [*off, *off + *len),
** 0 for NULL, -1 on corruption.  Booleans: use mdb_row_bool. */
int mdb_row_field(const mdb_db *db, const mdb_row *row, const mdb_column *col,
                  uint32_t *off, uint32_t *len, lt_error *err);
bool mdb_row_bool(const mdb_row *row, const mdb_column *col);

/* Walks the live rows of a table, page by page in page order. */
typedef struct mdb_cursor {
    const mdb_db *db;
    uint32_t tdef_page;
    const uint32_t *pages;
    uint32_t *owned;           /* `pages` when the cursor read the map itself */
    uint32_t npages, next_page;
    const uint8_t *page;
    uint32_t pgno;
    uint32_t nrows, next_slot;
} mdb_cursor;

int mdb_cursor_open(mdb_cursor *c, const mdb_db *db, const mdb_table *mt,
                    lt_error *err);
/* The same over a page list read before (borrowed: it must outlive the
** cursor). */
void mdb_cursor_start(mdb_cursor *c, const mdb_db *db, uint32_t tdef_page,
                      const uint32_t *pages, uint32_t npages);
/* The live row slots of the remaining pages, nothing decoded and overflow
** pointers not followed (each is one row); -1 on a malformed page. */
int64_t mdb_cursor_count(mdb_cursor *c, lt_error *err);
/* 1 with row->p/len/pgno/slot filled (overflow pointers followed), 0 at the
** end, -1 on error. */
int mdb_cursor_next(mdb_cursor *c, mdb_row *row, lt_error *err);
void mdb_cursor_close(mdb_cursor *c);

/* ---- growable byte buffers ------------------------------------------------------- */

typedef struct mdb_buf {
    uint8_t *p;
    size_t len, cap;
} mdb_buf;

/* Room for `need` bytes in total; -1 when out of memory. */
int mdb_buf_reserve(mdb_buf *b, size_t need);
/* Append `n` bytes and keep the buffer NUL-terminated; -1 when out of
** memory. */
int mdb_buf_add(mdb_buf *b, const char *s, size_t n);
void mdb_buf_free(mdb_buf *b);

/* ---- long values (lval.c) -------------------------------------------------- */

/* The bytes of a memo or OLE field (its 12-byte header and what follows):
** *out points into the file (inline and single-page values) or into `buf`
** (multi-page chains). */
int mdb_lval(const mdb_db *db, const uint8_t *field, uint32_t len, mdb_buf *buf,
             const uint8_t **out, uint32_t *out_len, lt_error *err);

/* ---- text (text.c) ----------------------------------------------------------- */

/* The code page of a Jet 3 column's text (`col` may be NULL for names):
** CodePage= if given, else the column's, else the header's, else 1252. */
int mdb_codepage(const mdb_db *db, const mdb_column *col);

/* Decode stored text to UTF-8.  Jet 4+: UTF-16LE or, after FF FE, compressed
** unicode; Jet 3: code page `cp`.  The result points into the file when the
** bytes already are UTF-8, else into `arena` (`scratch` is working room).
** -1 when out of memory. */
int mdb_text(const mdb_db *db, int cp, const uint8_t *p, uint32_t len,
             mdb_buf *scratch, lt_arena *arena, lt_bytes *out);

/* The same into a malloc'ed NUL-terminated string (names; Jet 3 text in
** mdb_codepage(db, NULL)); NULL when out of memory. */
char *mdb_text_dup(const mdb_db *db, const uint8_t *p, uint32_t len);

/* UTF-16LE units (compressed or not) to UTF-8: `dst` needs room for 3 bytes
** per unit.  Unpaired surrogates become U+FFFD.  Returns the length. */
size_t mdb_utf16_to_utf8(const uint8_t *p, size_t len, char *dst);

/* Compressed unicode (after the FF FE marker) to UTF-8; `dst` needs room
** for 3 * len bytes. */
size_t mdb_uncompress_to_utf8(const uint8_t *p, size_t len, char *dst);

/* ---- values (value.c) ----------------------------------------------------------- */

/* The logical type, ODBC size and type name of a column. */
void mdb_column_describe(const mdb_db *db, const mdb_column *mc, lt_column *out);

/* What decoding the fields of a row needs. */
typedef struct mdb_decoder {
    const mdb_db *db;
    const mdb_table *mt;
    const lt_table *table;
    lt_arena *arena;           /* decoded text and assembled values */
    mdb_buf lval;              /* multi-page LVAL assembly */
    mdb_buf text;              /* text decoding room */
} mdb_decoder;

/* Column `col` (table position) of `row` as a value of the column's logical
** type (LT_NULL for NULL). */
int mdb_value(mdb_decoder *d, const mdb_row *row, uint32_t col, lt_value *out,
              lt_error *err);
void mdb_decoder_free(mdb_decoder *d);

/* Access's Date/Time double to microseconds since 1970 (Access's rule for
** negative values, milliseconds kept); -1 when out of range. */
int mdb_datetime(double days, int64_t *usec);

/* floor() for |x| < 2^62, without libm (the reader libraries do not link it). */
static inline int64_t mdb_floor(double x)
{
    int64_t t = (int64_t)x;   /* towards zero */
    return (double)t > x ? t - 1 : t;
}

/* ---- the source (catalog.c, reader.c) ----------------------------------------------- */

/* A saved query as MSysObjects lists it, until MSysQueries is read. */
typedef struct mdb_query_obj {
    char *name;
    int32_t id;
    uint32_t flags;
} mdb_query_obj;

typedef struct access_source {
    lt_source base;
    uint32_t tables_cap;       /* room in base.tables and its parallel arrays */
    char **queries;            /* owned lt_table.query texts (or NULL) */
    mdb_query_obj *pending;    /* saved queries met in MSysObjects */
    uint32_t npending, pending_cap;
    lt_mapped_file file;
    bool own_file;
    lt_mutex lock;             /* guards what scans and counts fill in lazily */
    mdb_db db;
    mdb_table *mtables;        /* parallel to base.tables */
    char **errors;             /* owned lt_table.error texts (or NULL) */
    mdb_complex *complexes;    /* one per complex column of any table */
    uint32_t ncomplex;
    /* Linked tables whose target file was found: the target database
    ** (opened with the same options) and the table's position in it;
    ** parallel to base.tables, NULL where not a followed link. */
    lt_source **links;
    uint32_t *link_tables;
    const lt_options *opts;    /* during open only */
    int depth;                 /* links followed to reach this database */
} access_source;

/* Links are followed this many files deep at most (a link may point back). */
#define MDB_MAX_LINK_DEPTH 4

/* Open an Access file as the target of a link (reader.c). */
int mdb_open_linked(const char *path, const lt_options *opts, int depth, lt_source **out,
                    lt_error *err);

/* Call `cb` with the values of columns `pos` (-1: NULL) of every row of a
** table; stops at the first error (cb's or the reader's). */
#define MDB_EACH_MAX 16
int mdb_each_row(const mdb_db *db, const mdb_table *mt, const lt_table *t, const int64_t *pos,
                 uint32_t n, int (*cb)(void *ctx, const lt_value *vals, lt_error *err), void *ctx,
                 lt_error *err);
int64_t mdb_column_named(const lt_table *t, const char *name);

/* Append a zeroed table (row_estimate -1) to the source; NULL when out of
** memory. */
lt_table *mdb_add_table(access_source *s);

/* Read MSysObjects and fill the source's tables. */
int mdb_catalog_load(access_source *s, lt_error *err);
void mdb_catalog_free(access_source *s);

/* Resolve every complex column of the source's tables through
** MSysComplexColumns and read its flat table (fails only when out of memory;
** an unreadable column gets mdb_complex.error). */
int mdb_complex_load(access_source *s, lt_error *err);
void mdb_complex_free(access_source *s);

/* The entries of complex value `id` joined into one text in `arena` (LT_NULL
** when there are none); -1 when out of memory. */
int mdb_complex_value(const mdb_complex *cx, int32_t id, lt_arena *arena, lt_value *out);

/* ---- saved queries (query.c) and relationships (relation.c) ------------------ */

/* One row of MSysQueries (strings NULL when NULL; flag -1 when NULL). */
typedef struct mdb_qrow {
    int32_t object_id;
    int attribute;
    int flag;
    char *name1, *name2, *expr;
    uint64_t order;            /* the Order key's first 8 bytes, big-endian */
    uint32_t seq;              /* position in MSysQueries */
} mdb_qrow;

#define MDB_QUERY_NOT_TABLE 0  /* an action query, crosstab, ...: why names its type */
#define MDB_QUERY_VIEW 1       /* out holds the SQL */
#define MDB_QUERY_REFUSED 2    /* a view whose SQL cannot be given: why says why */

/* The SQL of one saved query from its rows (in MSysQueries order) and its
** MSysObjects Flags; one of MDB_QUERY_*, or -1 when out of memory. */
int mdb_query_sql(const mdb_qrow *rows, uint32_t n, uint32_t obj_flags, mdb_buf *out,
                  char *why, size_t cap);
/* The same, with the database's tables `cat` (or NULL) for what depends on
** a column's type (Nz(x) of one argument). */
int mdb_query_sql_in(const lt_source *cat, const mdb_qrow *rows, uint32_t n, uint32_t obj_flags,
                     mdb_buf *out, char *why, size_t cap);

/* Append Access SQL text translated to the engine's SQL: "text" to 'text',
** #date# to {d ...}/{ts ...}, [T]![C] to [T].[C], Len/Mid/Nz(x,y)/Date()/
** Time()/Left$... to CHAR_LENGTH/SUBSTRING/COALESCE/CURRENT_DATE/
** CURRENT_TIME/LEFT..., Access's own operators (Mod, \, ^) and functions
** (InStr, Int, Fix, Sgn, CLng, CStr, DateAdd, DateDiff ...) to expressions
** of the engine's (query.c says how); the rest unchanged.
** -1 when out of memory. */
int mdb_access_expr(mdb_buf *b, const char *s, size_t len);
/* The same, with the database's tables `cat` for what depends on a
** column's type: Nz(x) is COALESCE(x, 0) for a numeric column x,
** COALESCE(x, '') for a text one, and left to the engine (which names it)
** otherwise. */
int mdb_access_expr_in(const lt_source *cat, mdb_buf *b, const char *s, size_t len);

/* Turn the pending saved queries into views (reading MSysQueries); fails
** only when out of memory. */
int mdb_queries_load(access_source *s, lt_error *err);
void mdb_queries_free(access_source *s);

/* Read MSysRelationships into the tables' foreign keys; fails only when out
** of memory (an unreadable MSysRelationships means no foreign keys). */
int mdb_relations_load(access_source *s, lt_error *err);
/* Give each followed link its target table's foreign keys, the referenced
** table named as this database names it (relation.c); -1 when out of
** memory. */
int mdb_link_keys(access_source *s, lt_error *err);

#endif /* LT_ACCESS_INTERNAL_H */
