/*
** tdef.c — table definition (TDEF) pages: a table's columns and indexes.
**
** A TDEF may span several pages chained through the word at offset 4; the
** chain is read as one buffer (the first page whole, the others without
** their 8-byte header).  In that buffer: a header block (row count, column
** counts, index counts, the usage-map pointer), one entry per real index,
** one descriptor per column, the column names, the real index definitions,
** the logical index definitions and the index names.
**
** Column numbers (the null-mask bits) keep the gaps deleted columns leave;
** the table's columns are the descriptors sorted by number.  A fixed column
** sits at its fixed offset after the row's column count; a variable column
** is entry `var_index` of the row's variable-offset table.
*/
#include "access_internal.h"

#include "../common/endian.h"

#include <stdlib.h>
#include <string.h>

/* A TDEF chain read into one buffer. */
typedef struct tdef_buf {
    uint8_t *p;
    size_t len;
    uint32_t page;             /* first page, for messages */
} tdef_buf;

static int tdef_load(const mdb_db *db, uint32_t first, tdef_buf *b, lt_error *err)
{
    memset(b, 0, sizeof *b);
    b->page = first;
    uint32_t pg = first, seen = 0;
    while (pg != 0) {
        const uint8_t *page = mdb_page(db, pg);
        if (page == NULL) {
            free(b->p);
            return lt_error_set(err, "HY000", "'%s' is corrupt: a table definition names page %u, beyond the end of the file",
                                db->path, pg);
        }
        if (page[0] != MDB_PAGE_TDEF || ++seen > db->npages) {
            free(b->p);
            return mdb_corrupt(db, pg, seen > db->npages ? "the table definition pages form a loop"
                                                         : "expected a table definition page", err);
        }
        size_t skip = seen == 1 ? 0 : 8;
        size_t add = db->page_size - skip;
        uint8_t *grown = realloc(b->p, b->len + add);
        if (grown == NULL) {
            free(b->p);
            return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
        }
        b->p = grown;
        memcpy(b->p + b->len, page + skip, add);
        b->len += add;
        pg = lt_le32(page + 4);
    }
    return 0;
}

static int tdef_corrupt(const mdb_db *db, const tdef_buf *b, const char *what, lt_error *err)
{
    return mdb_corrupt(db, b->page, what, err);
}

static int by_number(const void *a, const void *b)
{
    const mdb_column *x = a, *y = b;
    return (int)x->number - (int)y->number;
}

/* One column descriptor. */
static void parse_column(const mdb_db *db, const uint8_t *e, mdb_column *c)
{
    const mdb_format *f = db->fmt;
    memset(c, 0, sizeof *c);
    c->type = e[0];
    c->number = lt_le16(e + f->col_number);
    c->var_index = lt_le16(e + f->col_var_index);
    c->flags = e[f->col_flags];
    c->fixed_offset = lt_le16(e + f->col_fixed);
    c->length = lt_le16(e + f->col_length);
    c->fixed = (c->flags & MDB_COL_FIXED) != 0;
    if (db->jet3) {
        int cp = lt_le16(e + f->col_codepage);
        c->codepage = cp;
    } else {
        c->precision = e[f->col_prec];
        c->scale = e[f->col_scale];
        c->xflags = e[f->col_flags + 1];
        c->calculated = (c->xflags & MDB_COLX_CALCULATED) != 0;
        if (c->type == MDB_COMPLEX)
            c->complex_id = (int32_t)lt_le32(e + f->col_prec);
    }
    if (c->type == MDB_BOOL)
        c->length = 0;
}

/* A name at *pos (length-prefixed); advances *pos. */
static char *read_name(const mdb_db *db, const tdef_buf *b, size_t *pos)
{
    size_t ls = db->fmt->name_len_size;
    if (*pos + ls > b->len)
        return NULL;
    size_t n = ls == 1 ? b->p[*pos] : lt_le16(b->p + *pos);
    *pos += ls;
    if (*pos + n > b->len)
        return NULL;
    char *s = mdb_text_dup(db, b->p + *pos, (uint32_t)n);
    *pos += n;
    return s;
}

/* The table position of column number `number`, or -1. */
static int64_t position_of(const mdb_table *mt, uint32_t number)
{
    for (uint32_t i = 0; i < mt->ncols; i++)
        if (mt->cols[i].number == number)
            return i;
    return -1;
}

/* Logical indexes (primary keys, unique and plain indexes; not the hidden
** foreign-key indexes) from the definitions after the column names. */
static int parse_indexes(const mdb_db *db, const tdef_buf *b, size_t pos, uint32_t nreal,
                         uint32_t nidx, const mdb_table *mt, lt_table *t, lt_error *err)
{
    const mdb_format *f = db->fmt;
    size_t real_at = pos;
    size_t logical_at = real_at + (size_t)nreal * f->real_def;
    size_t names_at = logical_at + (size_t)nidx * f->logical_def;
    if (names_at > b->len)
        return tdef_corrupt(db, b, "index definitions run past the table definition", err);
    t->indexes = calloc(nidx ? nidx : 1, sizeof *t->indexes);
    if (t->indexes == NULL)
        return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
    size_t npos = names_at;
    for (uint32_t i = 0; i < nidx; i++) {
        const uint8_t *ld = b->p + logical_at + (size_t)i * f->logical_def;
        char *name = read_name(db, b, &npos);
        if (name == NULL)
            return tdef_corrupt(db, b, "index names run past the table definition", err);
        uint32_t real = lt_le32(ld + f->logical_real);
        uint8_t kind = ld[f->logical_type];
        if (kind == 2 || real >= nreal) {   /* foreign-key index, or none */
            free(name);
            continue;
        }
        const uint8_t *rd = b->p + real_at + (size_t)real * f->real_def;
        lt_index *ix = &t->indexes[t->nindexes++];
        ix->name = name;
        ix->primary = kind == 1;
        ix->unique = ix->primary || (rd[f->real_flags] & 0x01);
        ix->cols = calloc(10, sizeof *ix->cols);
        if (ix->cols == NULL)
            return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
        for (int k = 0; k < 10; k++) {
            uint32_t num = lt_le16(rd + f->real_cols + 3 * k);
            if (num == 0xffff)
                continue;
            int64_t at = position_of(mt, num);
            if (at < 0)
                return tdef_corrupt(db, b, "an index names a column the table does not have", err);
            ix->cols[ix->ncols++] = (uint32_t)at;
            if (ix->primary)
                t->cols[at].nullable = false;
        }
    }
    return 0;
}

int mdb_tdef_read(const mdb_db *db, uint32_t page, mdb_table *mt, lt_table *t,
                  lt_error *err)
{
    const mdb_format *f = db->fmt;
    memset(mt, 0, sizeof *mt);
    mt->tdef_page = page;
    tdef_buf b;
    if (tdef_load(db, page, &b, err) != 0)
        return -1;
    int rc = -1;
    if (b.len < f->tdef_real_start) {
        tdef_corrupt(db, &b, "table definition too short", err);
        goto done;
    }
    mt->row_count = lt_le32(b.p + f->tdef_nrows);
    mt->nvar = lt_le16(b.p + f->tdef_nvar);
    mt->usage_map = lt_le32(b.p + f->tdef_usage);
    uint32_t ncols = lt_le16(b.p + f->tdef_ncols);
    uint32_t nidx = lt_le32(b.p + f->tdef_nidx);
    uint32_t nreal = lt_le32(b.p + f->tdef_nreal);
    uint64_t cols_at = f->tdef_real_start + (uint64_t)nreal * f->real_entry;
    uint64_t names_at = cols_at + (uint64_t)ncols * f->col_entry;
    if (names_at > b.len || nidx > b.len) {
        tdef_corrupt(db, &b, "column descriptors run past the table definition", err);
        goto done;
    }
    /* Descriptors and names are in the same (storage) order; sort them
    ** together by column number. */
    typedef struct pair { mdb_column c; char *name; } pair;
    pair *pairs = calloc(ncols ? ncols : 1, sizeof *pairs);
    mt->cols = calloc(ncols ? ncols : 1, sizeof *mt->cols);
    t->cols = calloc(ncols ? ncols : 1, sizeof *t->cols);
    if (pairs == NULL || mt->cols == NULL || t->cols == NULL) {
        free(pairs);
        lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
        goto done;
    }
    size_t pos = (size_t)names_at;
    for (uint32_t i = 0; i < ncols; i++) {
        parse_column(db, b.p + cols_at + (size_t)i * f->col_entry, &pairs[i].c);
        pairs[i].name = read_name(db, &b, &pos);
        if (pairs[i].name == NULL) {
            for (uint32_t k = 0; k < i; k++)
                free(pairs[k].name);
            free(pairs);
            tdef_corrupt(db, &b, "column names run past the table definition", err);
            goto done;
        }
    }
    qsort(pairs, ncols, sizeof *pairs, by_number);
    for (uint32_t i = 0; i < ncols; i++) {
        mt->cols[i] = pairs[i].c;
        mdb_column_describe(db, &mt->cols[i], &t->cols[i]);
        t->cols[i].name = pairs[i].name;
        if (i > 0 && mt->cols[i].number == mt->cols[i - 1].number) {
            t->ncols = mt->ncols = i + 1;
            for (uint32_t k = i + 1; k < ncols; k++)
                free(pairs[k].name);
            free(pairs);
            tdef_corrupt(db, &b, "two columns have the same column number", err);
            goto done;
        }
    }
    free(pairs);
    t->ncols = mt->ncols = ncols;
    if (parse_indexes(db, &b, pos, nreal, nidx, mt, t, err) != 0)
        goto done;
    t->row_estimate = mt->row_count;
    rc = 0;
done:
    free(b.p);
    return rc;
}

void mdb_table_free(mdb_table *mt)
{
    free(mt->cols);
    free(mt->pages);
    memset(mt, 0, sizeof *mt);
}
