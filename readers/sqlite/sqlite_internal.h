/*
** sqlite_internal.h — what the files of the SQLite reader share.
**
** header.c  the 100-byte database header -> sqlite_db
** pager.c   page number -> page bytes (mapped file, WAL frames on top)
** btree.c   walking table and index b-trees, cells, overflow chains
** record.c  varints, serial types, the record header, decoding values
** text.c    UTF-16 -> UTF-8
** schema.c  sqlite_schema and the CREATE TABLE text -> tables and columns
** value.c   handing SQLite's dynamically typed values to typed vectors
** reader.c  the lt_reader: open, scans
*/
#ifndef LT_SQLITE_INTERNAL_H
#define LT_SQLITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/platform.h"
#include "../common/sqlite_rules.h"
#include "sqlite.h"

/* Text encodings as header offset 56 gives them. */
#define SQLITE_ENC_UTF8 1
#define SQLITE_ENC_UTF16LE 2
#define SQLITE_ENC_UTF16BE 3

/* SQLite's own limit on b-tree depth (BTCURSOR_MAX_DEPTH). */
#define SQLITE_MAX_DEPTH 20

/* The largest payload SQLite writes (SQLITE_MAX_LENGTH plus a record
** header); anything larger is corruption. */
#define SQLITE_MAX_PAYLOAD 0x7fffff00u

/* ---- the database (header.c, pager.c) ------------------------------------ */

typedef struct sqlite_db {
    const char *path;          /* for messages */
    const uint8_t *data;       /* the main file */
    size_t size;
    uint32_t page_size;
    uint32_t usable;           /* page size less the reserved bytes */
    uint32_t npages;           /* pages that may be read */
    uint32_t file_pages;       /* whole pages in the main file */
    uint8_t encoding;          /* SQLITE_ENC_*; UTF-8 when the header says 0 */
    uint32_t schema_format;
    uint32_t change_counter;   /* header offset 24 at open */
    bool wal_mode;             /* header bytes 18/19 are 2 */
    uint32_t max_local_table;  /* X for table leaves: U - 35 */
    uint32_t max_local_index;  /* X for index pages */
    uint32_t min_local;        /* M */
    /* WAL overlay: NULL, or npages + 1 entries, page -> frame bytes (NULL =
    ** read the main file).  Owned by the source. */
    const uint8_t **wal_pages;
    lt_mapped_file wal_file;
} sqlite_db;

/* Parse and check the header of `data`; fills everything but the WAL. */
int sqlite_header_parse(sqlite_db *db, const char *path, const uint8_t *data,
                        size_t size, lt_error *err);

/* Re-read the per-database fields (encoding, reserved bytes, schema
** format) from page 1 when the WAL holds a newer page 1. */
int sqlite_header_refresh(sqlite_db *db, const uint8_t *page1, lt_error *err);

/* Apply the committed frames of `wal_path` (which may be missing or empty).
** Fails only on a -wal file that claims to be one and is inconsistent in a
** way SQLite would reject. */
int sqlite_wal_open(sqlite_db *db, const char *wal_path, lt_error *err);
void sqlite_wal_close(sqlite_db *db);

int sqlite_page_error(const sqlite_db *db, uint32_t pgno, lt_error *err);

/* The bytes of page `pgno` (1-based), or NULL with `err` filled. */
static inline const uint8_t *sqlite_page(const sqlite_db *db, uint32_t pgno,
                                         lt_error *err)
{
    if (pgno == 0 || pgno > db->npages) {
        sqlite_page_error(db, pgno, err);
        return NULL;
    }
    if (db->wal_pages != NULL && db->wal_pages[pgno] != NULL)
        return db->wal_pages[pgno];
    if (pgno > db->file_pages) {
        sqlite_page_error(db, pgno, err);
        return NULL;
    }
    return db->data + (size_t)(pgno - 1) * db->page_size;
}

/* ---- b-trees (btree.c) ---------------------------------------------------- */

/* Page types (first byte of the b-tree page header). */
#define SQLITE_PAGE_INDEX_INTERIOR 2
#define SQLITE_PAGE_TABLE_INTERIOR 5
#define SQLITE_PAGE_INDEX_LEAF 10
#define SQLITE_PAGE_TABLE_LEAF 13

typedef struct sqlite_cell {
    int64_t rowid;             /* table b-trees */
    const uint8_t *local;      /* the payload bytes on the page */
    uint32_t local_len;
    uint32_t payload_len;      /* whole payload */
    uint32_t overflow;         /* first overflow page; 0 when all local */
    uint32_t pgno;             /* page holding the cell, for messages */
} sqlite_cell;

typedef struct sqlite_level {
    const uint8_t *page;
    uint32_t pgno;
    uint16_t hdr;              /* offset of the b-tree page header */
    uint16_t ncells;
    uint16_t next;             /* next cell (leaf) or child (interior) */
    bool leaf;
    bool pending;              /* index interior: cell next-1 still to emit */
} sqlite_level;

typedef struct sqlite_cursor {
    const sqlite_db *db;
    bool index;                /* index b-tree (WITHOUT ROWID) */
    int depth;
    uint64_t visited;          /* pages entered; more than npages = a loop */
    sqlite_level stack[SQLITE_MAX_DEPTH];
} sqlite_cursor;

int sqlite_cursor_open(sqlite_cursor *c, const sqlite_db *db, uint32_t root,
                       bool index, lt_error *err);
/* 1 with *cell filled, 0 at the end, -1 on corruption. */
int sqlite_cursor_next(sqlite_cursor *c, sqlite_cell *cell, lt_error *err);
/* On a cursor just opened over a table b-tree: move so that the next
** sqlite_cursor_next returns the first row whose rowid is >= `rowid`,
** entering only the pages on the way down.  Does nothing on an index
** b-tree. */
int sqlite_cursor_seek(sqlite_cursor *c, int64_t rowid, lt_error *err);

/* Compares an index entry with the key sought: *cmp < 0, 0, > 0 as the
** entry sorts before, with, after it.  -1 on failure. */
typedef int (*sqlite_key_cmp)(void *ctx, const sqlite_cell *cell, int *cmp, lt_error *err);
/* On a cursor just opened over an index b-tree: move so that the next
** sqlite_cursor_next returns the first entry that does not sort before
** the key (a lower bound), entering only the pages on the way down. */
int sqlite_cursor_seek_index(sqlite_cursor *c, sqlite_key_cmp cmp, void *ctx, lt_error *err);

/* How much of a payload of `p` bytes stays on its page (file-format
** section "B-tree Pages": X, M, K). */
uint32_t sqlite_local_size(const sqlite_db *db, uint32_t p, bool index);

/* Rows of a b-tree without decoding records: table b-trees count leaf
** cells, index b-trees every cell.  -1 on corruption. */
int64_t sqlite_btree_count(const sqlite_db *db, uint32_t root, bool index,
                           lt_error *err);

/* A growable buffer for assembling payloads that overflow. */
typedef struct sqlite_buf {
    uint8_t *p;
    size_t cap;
} sqlite_buf;

/* Copy the first `want` bytes of the cell's payload (want <= payload_len)
** into `buf`, following the overflow chain. */
int sqlite_payload_read(const sqlite_db *db, const sqlite_cell *cell,
                        uint32_t want, sqlite_buf *buf, lt_error *err);

/* ---- records (record.c) --------------------------------------------------- */

/* Storage classes. */
enum { SQLITE_NULL = 0, SQLITE_INT, SQLITE_REAL, SQLITE_TEXT, SQLITE_BLOB };

typedef struct sqlite_val {
    uint8_t cls;               /* SQLITE_NULL ... SQLITE_BLOB */
    uint8_t enc;               /* TEXT: SQLITE_ENC_* of the bytes */
    bool transient;            /* bytes are overwritten by the next row */
    int64_t i;
    double r;
    const uint8_t *p;          /* TEXT, BLOB */
    uint32_t n;
} sqlite_val;

/* Read a varint at p (at most end - p bytes).  Returns its length, 0 when it
** runs past end. */
int sqlite_varint(const uint8_t *p, const uint8_t *end, uint64_t *out);

/* Bytes a serial type takes in the record body; -1 for the reserved types
** 10 and 11. */
int64_t sqlite_serial_size(uint64_t serial);

/*
** Walk the record header once.  `rec` holds `have` bytes of a payload of
** `len` bytes (have <= len; the header must lie inside `have`).  For fields
** 0 .. limit-1 present in the record, stores serial types and body offsets;
** *nfields gets how many fields the record has (up to limit).  Fails when
** the header or a field runs past the payload.
*/
int sqlite_record_header(const uint8_t *rec, uint32_t have, uint32_t len,
                         uint32_t limit, uint64_t *serials, uint32_t *offsets,
                         uint32_t *nfields, uint32_t *header_len);

/* Decode one field whose bytes start at p (its size checked by the caller). */
void sqlite_decode(uint64_t serial, const uint8_t *p, uint8_t enc,
                   sqlite_val *out);

/* ---- index entries (seek.c) ------------------------------------------------ */

/* SQLite's order of a value against a key: NULL < numbers (integers and
** reals by value) < text (BINARY: bytes, then length) < blobs.  A key of
** class SQLITE_NULL stands for "just above the NULLs". */
int sqlite_key_cmp_val(const sqlite_val *v, const sqlite_val *key);

/* The first field of a record of an index b-tree (a WITHOUT ROWID
** table's row, whose payload may be larger than one index entry). */
int sqlite_record_first(const sqlite_db *db, const sqlite_cell *cell, sqlite_buf *buf,
                        sqlite_val *first, lt_error *err);

/* The first field of an index entry and the rowid it ends with (a rowid
** table's index), in one walk of its header. */
int sqlite_index_entry(const sqlite_db *db, const sqlite_cell *cell, sqlite_buf *buf,
                       sqlite_val *first, int64_t *rowid, lt_error *err);

/* ---- text (text.c) -------------------------------------------------------- */

/* Worst-case UTF-8 bytes for n bytes of UTF-16. */
#define SQLITE_UTF16_MAX_UTF8(n) (((size_t)(n) / 2) * 3 + 3)
/* Convert UTF-16 (le or be) to UTF-8 into dst (room for
** SQLITE_UTF16_MAX_UTF8(n)); lone surrogates become U+FFFD.  Returns the
** UTF-8 length. */
size_t sqlite_utf16_to_utf8(const uint8_t *src, size_t n, bool big_endian,
                            char *dst);
/* A malloc'ed NUL-terminated UTF-8 copy of a text value in any encoding. */
char *sqlite_text_dup(const uint8_t *p, size_t n, uint8_t enc);

/* ---- SQL text (lexer.c) ---------------------------------------------------- */

typedef enum {
    SQLITE_TK_END, SQLITE_TK_ID, SQLITE_TK_QID, SQLITE_TK_STRING, SQLITE_TK_NUM, SQLITE_TK_BLOB, SQLITE_TK_LP, SQLITE_TK_RP,
    SQLITE_TK_COMMA, SQLITE_TK_OTHER
} sqlite_tk_kind;

typedef struct sqlite_lexer {
    const char *p, *end;
    sqlite_tk_kind kind;              /* the current token */
    const char *tok;
    size_t len;
} sqlite_lexer;

/* Start with sqlite_lexer lx = {text, text + len, SQLITE_TK_END, text, 0};
** then sqlite_lex_next(&lx) makes the first token current. */
void sqlite_lex_next(sqlite_lexer *lx);
bool sqlite_lex_is_kw(const sqlite_lexer *lx, const char *kw);
/* Move past the current token when it is keyword `kw`. */
bool sqlite_lex_accept(sqlite_lexer *lx, const char *kw);
/* An identifier, any quoted form, or a string. */
bool sqlite_lex_is_name(const sqlite_lexer *lx);
/* At '(': move past the matching ')'; false at a premature end. */
bool sqlite_lex_skip_parens(sqlite_lexer *lx);
/* A token's text without its quotes, malloc'ed. */
char *sqlite_dequote(const char *t, size_t n);

/* ---- schema (schema.c) ---------------------------------------------------- */

/* A column's affinity: lt_sqlite_affinity's values (common/sqlite_rules.h). */
enum { SQLITE_AFF_BLOB = LT_SQLITE_AFF_BLOB, SQLITE_AFF_TEXT = LT_SQLITE_AFF_TEXT,
       SQLITE_AFF_NUMERIC = LT_SQLITE_AFF_NUMERIC, SQLITE_AFF_INTEGER = LT_SQLITE_AFF_INTEGER,
       SQLITE_AFF_REAL = LT_SQLITE_AFF_REAL };

/* Where a column's value comes from. */
#define SQLITE_FIELD_ROWID (-1)      /* INTEGER PRIMARY KEY: the rowid */
#define SQLITE_FIELD_VIRTUAL (-2)    /* VIRTUAL generated column */

typedef struct sqlite_col {
    uint8_t affinity;
    int32_t field;             /* record field, or SQLITE_FIELD_* */
    bool has_default;          /* DEFAULT given (may be an expression) */
    bool default_ok;           /* dflt holds its constant value */
    sqlite_val dflt;           /* affinity applied; bytes owned (malloc) */
    char *generated;           /* the AS (...) expression text, or NULL */
    struct sqlite_expr *expr;  /* VIRTUAL: compiled, or NULL when not computable */
    bool pk;
    bool collated;             /* declared COLLATE other than BINARY */
} sqlite_col;

/* An index of a rowid table, not partial, not on an expression, or the
** b-tree of a WITHOUT ROWID table (keyed on its primary key): comparisons
** of its leading column with numbers (and with text when text_ok) can seek
** it (reader.c). */
typedef struct sqlite_seek_index {
    uint32_t root;
    uint32_t col;              /* the table column it starts with */
    bool text_ok;              /* its text is in BINARY (memcmp) order */
    bool desc;                 /* that column is DESC: keys in reverse order */
} sqlite_seek_index;

typedef struct sqlite_table {
    uint32_t root;
    bool without_rowid;
    bool strict;
    uint32_t nfields;          /* fields of a complete record */
    sqlite_col *cols;          /* parallel to lt_table.cols */
    char *error;               /* why the table cannot be scanned */
    char *query;               /* a view's SELECT (lt_table.query) */
    sqlite_seek_index *seekable;
    uint32_t nseekable;
    sqlite_seek_index pk_seek; /* WITHOUT ROWID: its own b-tree */
    bool pk_seekable;
    uint32_t db_pages;         /* for checking index roots */
} sqlite_table;

typedef struct sqlite_source {
    lt_source base;
    sqlite_db db;
    lt_mapped_file file;       /* unmapped at close (data NULL for memory) */
    bool own_file;
    sqlite_table *tables;      /* parallel to base.tables */
    char **strings;            /* type names and other owned text */
    size_t nstrings, strings_cap;
} sqlite_source;

/* Read sqlite_schema and fill base.tables / tables.  Only a damaged
** sqlite_schema fails; a table whose DDL cannot be read is listed with an
** error. */
int sqlite_schema_load(sqlite_source *src, lt_error *err);
void sqlite_schema_free(sqlite_source *src);

/* ---- generated columns (genexpr.c) ------------------------------------------ */

typedef struct sqlite_expr sqlite_expr;

/* The value of table column `col` in the current row. */
typedef int (*sqlite_getter)(void *ctx, uint32_t col, sqlite_val *out);

/* Compile a generated column's expression against table `t` (whose columns'
** `field`s are set); NULL when it uses what this reader cannot compute. */
sqlite_expr *sqlite_expr_compile(const char *text, const lt_table *t,
                                 const sqlite_col *cols);
void sqlite_expr_free(sqlite_expr *e);
/* Whether the expression reads table column `col`. */
bool sqlite_expr_uses(const sqlite_expr *e, uint32_t col);
/* Evaluate for one row; text results live in `arena`.  The column's
** affinity is applied.  -1 when SQLite would raise an error. */
int sqlite_expr_eval(const sqlite_expr *e, uint8_t affinity, sqlite_getter get,
                     void *ctx, lt_arena *arena, sqlite_val *out);

/* ---- values (value.c) ----------------------------------------------------- */

/* Parse a DEFAULT clause (`text`, UTF-8) to its value with `affinity`
** applied, as SQLite does for ALTER TABLE ADD COLUMN.  Returns 0, or -1
** when it is not a constant this reader evaluates.  Bytes are malloc'ed. */
int sqlite_default_value(const char *text, size_t len, uint8_t affinity,
                         sqlite_val *out);

/* A REAL holding an integer in int64's range becomes INTEGER. */
void sqlite_integer_affinity(sqlite_val *v);

/* Store `val` in row `row` of vector `col` of `batch`: in the vector's type
** when that is exact, else as a tagged value of its own storage class (see
** reader.h, lt_vector.tags).  Returns -1 when out of memory. */
int sqlite_put(lt_batch *batch, uint32_t col, uint32_t row,
               const sqlite_val *val);

/* Forget the tags of every vector (their memory is in the arena that
** lt_batch_reset just emptied). */
void sqlite_batch_untag(lt_batch *batch);

#endif /* LT_SQLITE_INTERNAL_H */
