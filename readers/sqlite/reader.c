/*
** reader.c — the SQLite reader's lt_reader: probing, opening, scans.
**
** Opening maps the file read-only, checks the header, lays the committed
** frames of a -wal file over it (WAL mode only) and reads sqlite_schema.
** Nothing is written, created or locked: not the database, not the -wal,
** not the -shm.
**
** A scan walks the table's b-tree in rowid (or primary-key) order, from
** the start of a rowid range when the engine offers comparisons of the
** INTEGER PRIMARY KEY (a seek) to its end.  Comparisons and IN lists on
** the leading column of an index instead collect the rowids the index
** names (ASC or DESC), sorted, and fetch those rows (still in rowid
** order); on the leading primary-key column of a WITHOUT ROWID table they
** walk key ranges of the table's own b-tree, in its order.  Per row
** it walks the record header once, up to the last wanted field, and decodes
** only the wanted fields.  Pages are read in place from the mapping; only a
** payload that overflows its page is assembled into a buffer, and only as
** far as the wanted fields reach.
**
** A file rewritten under a scan fails the statement: each batch checks the
** file's identity, size and mtime and the header's change counter against
** what they were at open (see README.md for why not reread).
*/
#include "sqlite_internal.h"

#include "../common/endian.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lt_scan {
    sqlite_source *src;
    const sqlite_table *st;
    const lt_table *table;
    const lt_scan_spec *spec;
    sqlite_cursor cur;
    uint32_t limit;            /* record fields to walk */
    uint64_t *serials;
    uint32_t *offsets;
    sqlite_buf buf;
    bool done;
    /* rowid range from predicates on the INTEGER PRIMARY KEY (inclusive) */
    bool ranged;
    int64_t lo, hi;
    /* rowids of an IN list on the INTEGER PRIMARY KEY, sorted, distinct:
    ** one seek each (NULL: a plain or ranged scan) */
    int64_t *keys;
    uint32_t nkeys, kpos;
    /* keys came from an index: each must name a row */
    bool from_index;
    sqlite_buf ibuf;           /* an index entry that overflows */
    /* WITHOUT ROWID: key ranges of its own b-tree, walked in its order
    ** (NULL: a plain scan); `positioned` once the cursor is in ranges[rpos] */
    struct index_range *ranges;
    uint32_t nranges, rpos;
    bool positioned;
};

static int probe(const uint8_t *head, size_t len, const char *path)
{
    (void)path;
    if (len >= 16 && memcmp(head, "SQLite format 3", 16) == 0)
        return 100;
    return 0;
}

static void source_free(sqlite_source *s)
{
    if (s == NULL)
        return;
    sqlite_schema_free(s);
    sqlite_wal_close(&s->db);
    if (s->own_file)
        lt_unmap_file(&s->file);
    free(s->base.path);
    free(s);
}

static void sqlite_close(lt_source *base)
{
    source_free((sqlite_source *)base);
}

/* Header, WAL, schema: everything after the bytes are in memory. */
static int open_bytes(sqlite_source *s, const char *wal_path, lt_error *err)
{
    const char *name = s->base.path;
    if (sqlite_header_parse(&s->db, name, s->file.data, s->file.size, err) != 0)
        return -1;
    if (s->db.wal_mode && wal_path != NULL && sqlite_wal_open(&s->db, wal_path, err) != 0)
        return -1;
    return sqlite_schema_load(s, err);
}

static sqlite_source *source_new(const char *name)
{
    sqlite_source *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->base.reader = &lt_sqlite_reader;
    s->base.dialect = LT_DIALECT_SQLITE;
    s->base.path = strdup(name);
    if (s->base.path == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

static int sqlite_open(const char *path, const lt_options *opts, lt_source **out,
                       lt_error *err)
{
    (void)opts;
    *out = NULL;
    sqlite_source *s = source_new(path);
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    if (lt_map_file(path, &s->file, err) != 0) {
        source_free(s);
        return -1;
    }
    s->own_file = true;
    size_t n = strlen(path);
    char *wal = malloc(n + 5);
    if (wal == NULL) {
        source_free(s);
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    }
    memcpy(wal, path, n);
    memcpy(wal + n, "-wal", 5);
    int rc = open_bytes(s, wal, err);
    free(wal);
    if (rc != 0) {
        source_free(s);
        return -1;
    }
    *out = &s->base;
    return 0;
}

int lt_sqlite_open_memory(const uint8_t *data, size_t len, const char *name,
                          const lt_options *opts, lt_source **out, lt_error *err)
{
    (void)opts;
    *out = NULL;
    sqlite_source *s = source_new(name ? name : "memory");
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    s->file.data = len ? data : NULL;
    s->file.size = len;
    if (open_bytes(s, NULL, err) != 0) {
        source_free(s);
        return -1;
    }
    *out = &s->base;
    return 0;
}

/* ---- scans ------------------------------------------------------------------- */

static void scan_free(lt_scan *sc)
{
    if (sc == NULL)
        return;
    free(sc->serials);
    free(sc->offsets);
    free(sc->buf.p);
    free(sc->keys);
    free(sc->ibuf.p);
    free(sc->ranges);
    free(sc);
}

/* A view has no b-tree: the engine runs its query instead of scanning it. */
static int view_error(const lt_source *base, const lt_table *t, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s': '%s' is a view: its rows come from its SELECT "
                        "(lt_table.query), not from a scan", base->path, t->name);
}

/* Narrow [lo, hi] by one comparison of the rowid with `k`; false when the
** operator is not a range one. */
static bool narrow(lt_pred_op op, int64_t k, int64_t *lo, int64_t *hi)
{
    switch (op) {
    case LT_PRED_EQ:
        *lo = k > *lo ? k : *lo;
        *hi = k < *hi ? k : *hi;
        return true;
    case LT_PRED_GE:
        *lo = k > *lo ? k : *lo;
        return true;
    case LT_PRED_LE:
        *hi = k < *hi ? k : *hi;
        return true;
    case LT_PRED_GT:   /* nothing is greater than INT64_MAX: lo > hi */
        if (k == INT64_MAX) {
            *lo = INT64_MAX;
            *hi = INT64_MIN;
        } else if (k + 1 > *lo) {
            *lo = k + 1;
        }
        return true;
    case LT_PRED_LT:
        if (k == INT64_MIN) {
            *lo = INT64_MAX;
            *hi = INT64_MIN;
        } else if (k - 1 < *hi) {
            *hi = k - 1;
        }
        return true;
    default:
        return false;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The first IN list of integers on the rowid, as sorted distinct keys.
** Returns -1 when out of memory (the list is then simply not taken). */
static int take_rowid_list(lt_scan *sc, lt_pred *p)
{
    if (sc->keys != NULL || p->nvalues == 0)
        return 0;
    sc->keys = malloc(p->nvalues * sizeof *sc->keys);
    if (sc->keys == NULL)
        return -1;
    for (uint32_t k = 0; k < p->nvalues; k++)
        sc->keys[k] = p->values[k].u.i64;
    qsort(sc->keys, p->nvalues, sizeof *sc->keys, cmp_i64);
    uint32_t n = 0;
    for (uint32_t k = 0; k < p->nvalues; k++)
        if (n == 0 || sc->keys[n - 1] != sc->keys[k])
            sc->keys[n++] = sc->keys[k];
    sc->nkeys = n;
    p->use = LT_PUSH_EXACT;
    return 0;
}

/* Comparisons and BETWEENs of the INTEGER PRIMARY KEY (the rowid) with
** integers become a rowid range: the scan seeks its start and stops past
** its end, and the rows it returns satisfy them exactly.  An IN list of
** integers on it becomes one seek per key (within the range).  Other
** predicates are left to the engine. */
static void take_rowid_range(lt_scan *sc, const lt_scan_spec *spec)
{
    int64_t lo = INT64_MIN, hi = INT64_MAX;
    for (uint32_t i = 0; i < spec->npreds; i++) {
        lt_pred *p = &spec->preds[i];
        p->use = LT_PUSH_UNUSED;
        if (sc->st->without_rowid || p->col >= sc->table->ncols ||
            sc->st->cols[p->col].field != SQLITE_FIELD_ROWID)
            continue;
        bool ints = p->nvalues > 0;
        for (uint32_t k = 0; k < p->nvalues; k++)
            ints &= p->values[k].type == LT_INT64;
        if (!ints)
            continue;
        if (p->op == LT_PRED_IN) {
            if (take_rowid_list(sc, p) == 0 && p->use == LT_PUSH_EXACT)
                sc->ranged = true;
            continue;
        }
        bool used;
        if (p->op == LT_PRED_BETWEEN && p->nvalues == 2)
            used = narrow(LT_PRED_GE, p->values[0].u.i64, &lo, &hi) &&
                   narrow(LT_PRED_LE, p->values[1].u.i64, &lo, &hi);
        else
            used = p->nvalues == 1 && narrow(p->op, p->values[0].u.i64, &lo, &hi);
        if (used) {
            p->use = LT_PUSH_EXACT;
            sc->ranged = true;
        }
    }
    sc->lo = lo;
    sc->hi = hi;
}

/* ---- index seeks ---------------------------------------------------------- */

/* What a predicate on an indexed column asks of the index's leading
** column: entries in [lo, hi] (either end open), or equal to one of a list. */
typedef struct index_range {
    bool has_lo, lo_incl, has_hi, hi_incl;
    sqlite_val lo, hi;
} index_range;

/* Where an entry's leading value v lies against r, in the b-tree's order
** (reversed for a DESC column): < 0 before it, 0 inside, > 0 past it. */
static int range_place(const index_range *r, const sqlite_val *v, bool desc)
{
    int c = r->has_lo ? sqlite_key_cmp_val(v, &r->lo) : v->cls == SQLITE_NULL ? -1 : 1;
    bool below = c < 0 || (c == 0 && !r->lo_incl);
    c = r->has_hi ? sqlite_key_cmp_val(v, &r->hi) : -1;
    bool above = c > 0 || (c == 0 && !r->hi_incl);
    if (below)
        return desc ? 1 : -1;
    if (above)
        return desc ? -1 : 1;
    return 0;
}

/* The constant as the index stores it, when a seek can answer the
** predicate: a number on a numeric column (whose affinity has turned every
** number-like value into a number), or text on a TEXT column of a UTF-8
** database whose index keeps BINARY order (UTF-16 bytes sort otherwise). */
static bool index_key(const lt_scan *sc, const sqlite_seek_index *x, uint32_t c,
                      const lt_value *v, sqlite_val *key)
{
    const sqlite_col *col = &sc->st->cols[c];
    lt_type t = sc->table->cols[c].type;
    memset(key, 0, sizeof *key);
    if (col->field < 0)
        return false;
    if (t == LT_INT64 || t == LT_DOUBLE) {
        if (col->affinity != SQLITE_AFF_INTEGER && col->affinity != SQLITE_AFF_REAL &&
            col->affinity != SQLITE_AFF_NUMERIC)
            return false;
        if (v->type == LT_INT64) {
            key->cls = SQLITE_INT;
            key->i = v->u.i64;
            return true;
        }
        if (v->type == LT_DOUBLE && v->u.f64 == v->u.f64) {
            key->cls = SQLITE_REAL;
            key->r = v->u.f64;
            return true;
        }
        return false;
    }
    if (t == LT_TEXT && v->type == LT_TEXT && col->affinity == SQLITE_AFF_TEXT && x->text_ok &&
        sc->src->db.encoding == SQLITE_ENC_UTF8) {
        key->cls = SQLITE_TEXT;
        key->enc = SQLITE_ENC_UTF8;
        key->p = (const uint8_t *)v->u.bytes.ptr;
        key->n = v->u.bytes.len;
        return true;
    }
    return false;
}

/* Narrow r by "column op key"; false for an operator a range cannot hold. */
static bool range_narrow(index_range *r, lt_pred_op op, const sqlite_val *key)
{
    bool lo = op == LT_PRED_GT || op == LT_PRED_GE || op == LT_PRED_EQ;
    bool hi = op == LT_PRED_LT || op == LT_PRED_LE || op == LT_PRED_EQ;
    if (!lo && !hi)
        return false;
    if (lo) {
        bool incl = op != LT_PRED_GT;
        int c = r->has_lo ? sqlite_key_cmp_val(key, &r->lo) : 1;
        if (c > 0 || (c == 0 && !incl)) {
            r->lo = *key;
            r->lo_incl = incl;
        }
        r->has_lo = true;
    }
    if (hi) {
        bool incl = op != LT_PRED_LT;
        int c = r->has_hi ? sqlite_key_cmp_val(key, &r->hi) : -1;
        if (c < 0 || (c == 0 && !incl)) {
            r->hi = *key;
            r->hi_incl = incl;
        }
        r->has_hi = true;
    }
    return true;
}

typedef struct seek_ctx {
    lt_scan *sc;
    const sqlite_val *key;
    bool desc;
} seek_ctx;

/* The leading value of an entry: an index's, or a WITHOUT ROWID row's. */
static int entry_first(lt_scan *sc, const sqlite_cell *cell, sqlite_val *v, int64_t *rowid,
                       lt_error *err)
{
    if (sc->st->without_rowid)
        return sqlite_record_first(&sc->src->db, cell, &sc->ibuf, v, err);
    return sqlite_index_entry(&sc->src->db, cell, &sc->ibuf, v, rowid, err);
}

static int seek_cmp(void *ctx, const sqlite_cell *cell, int *cmp, lt_error *err)
{
    seek_ctx *k = ctx;
    sqlite_val v;
    int64_t rowid;
    if (entry_first(k->sc, cell, &v, &rowid, err) != 0)
        return -1;
    int c = sqlite_key_cmp_val(&v, k->key);
    *cmp = k->desc ? -c : c;
    return 0;
}

/* Open `cur` over b-tree `root` at the first entry that may lie in r: its
** lower end (or just above the NULLs) ascending; its upper end when DESC,
** else the start (where the largest values are). */
static int range_start(lt_scan *sc, sqlite_cursor *cur, uint32_t root, bool desc,
                       const index_range *r, lt_error *err)
{
    static const sqlite_val above_null = {.cls = SQLITE_NULL};
    seek_ctx ctx = {sc, desc ? &r->hi : r->has_lo ? &r->lo : &above_null, desc};
    if (sqlite_cursor_open(cur, &sc->src->db, root, true, err) != 0)
        return -1;
    if (desc && !r->has_hi)
        return 0;
    return sqlite_cursor_seek_index(cur, seek_cmp, &ctx, err);
}

/* Past this many rows a seek gives way to the scan: fetching each row by
** its own descent costs more than reading the table in order, and the
** rowids would take memory. */
#define SEEK_MAX_ROWS (1u << 20)

/* Append the rowids of the index entries in r to sc->keys: 0, or 1 when
** there are more than SEEK_MAX_ROWS, -1 on failure. */
static int collect_range(lt_scan *sc, const sqlite_seek_index *x, const index_range *r,
                         uint32_t *cap, lt_error *err)
{
    const sqlite_db *db = &sc->src->db;
    sqlite_cursor cur;
    if (range_start(sc, &cur, x->root, x->desc, r, err) != 0)
        return -1;
    for (;;) {
        sqlite_cell entry;
        int rc = sqlite_cursor_next(&cur, &entry, err);
        if (rc <= 0)
            return rc;
        sqlite_val v;
        int64_t rowid;
        if (sqlite_index_entry(db, &entry, &sc->ibuf, &v, &rowid, err) != 0)
            return -1;
        int place = range_place(r, &v, x->desc);
        if (place < 0)
            continue;
        if (place > 0)
            return 0;
        if (sc->nkeys == SEEK_MAX_ROWS)
            return 1;
        if (sc->nkeys == *cap) {
            uint32_t ncap = *cap ? *cap * 2 : 256;
            int64_t *k = ncap > *cap ? realloc(sc->keys, (size_t)ncap * sizeof *k) : NULL;
            if (k == NULL)
                return lt_error_set(err, "HY001", "out of memory seeking an index of '%s'",
                                    db->path);
            sc->keys = k;
            *cap = ncap;
        }
        sc->keys[sc->nkeys++] = rowid;
    }
}

/* The predicates on x's leading column a seek can answer, narrowed into *r
** (true when any), or the first IN list of them (*list), each marked with
** the use a seek gives it.  A numeric equality or IN list is answered
** exactly (text and blobs, which SQLite never equates with a number, sort
** apart); ranges and text are answered as a superset the engine checks
** again, so that its own comparison decides.  An IN list is used only
** alone: with a range the engine is left to apply it. */
static bool seek_preds(const lt_scan *sc, const lt_scan_spec *spec, const sqlite_seek_index *x,
                       index_range *r, lt_pred **list)
{
    memset(r, 0, sizeof *r);
    *list = NULL;
    bool any = false;
    for (uint32_t i = 0; i < spec->npreds; i++) {
        lt_pred *p = &spec->preds[i];
        if (p->use != LT_PUSH_UNUSED || p->col != x->col || p->nvalues == 0)
            continue;
        sqlite_val a, b;
        if (p->op == LT_PRED_IN) {
            bool ok = *list == NULL;
            for (uint32_t j = 0; ok && j < p->nvalues; j++)
                ok = index_key(sc, x, p->col, &p->values[j], &a);
            if (ok)
                *list = p;
        } else if (p->op == LT_PRED_BETWEEN) {
            if (p->nvalues == 2 && index_key(sc, x, p->col, &p->values[0], &a) &&
                index_key(sc, x, p->col, &p->values[1], &b)) {
                range_narrow(r, LT_PRED_GE, &a);
                range_narrow(r, LT_PRED_LE, &b);
                p->use = LT_PUSH_SUPERSET;
                any = true;
            }
        } else if (p->nvalues == 1 && index_key(sc, x, p->col, &p->values[0], &a) &&
                   range_narrow(r, p->op, &a)) {
            p->use = p->op == LT_PRED_EQ && a.cls != SQLITE_TEXT ? LT_PUSH_EXACT
                                                                 : LT_PUSH_SUPERSET;
            any = true;
        }
    }
    if (*list != NULL && !any)
        (*list)->use = (*list)->values[0].type == LT_TEXT ? LT_PUSH_SUPERSET : LT_PUSH_EXACT;
    else
        *list = NULL;
    return any;
}

/* The key of an IN list's j-th value, as a one-point range. */
static void point_range(const lt_scan *sc, const sqlite_seek_index *x, const lt_pred *list,
                        uint32_t j, index_range *pt)
{
    memset(pt, 0, sizeof *pt);
    index_key(sc, x, list->col, &list->values[j], &pt->lo);
    range_narrow(pt, LT_PRED_EQ, &pt->lo);
}

/* The rowids an index names for predicates on its leading column, sorted
** and distinct, so that the rows come in rowid order as a scan's would. */
static int take_index_seek(lt_scan *sc, const lt_scan_spec *spec, lt_error *err)
{
    const sqlite_table *st = sc->st;
    if (sc->keys != NULL)
        return 0;
    for (uint32_t k = 0; k < st->nseekable; k++) {
        const sqlite_seek_index *x = &st->seekable[k];
        index_range r;
        lt_pred *list;
        bool any = seek_preds(sc, spec, x, &r, &list);
        if (!any && list == NULL)
            continue;
        uint32_t cap = 0;
        int rc = 0;
        if (list != NULL) {
            for (uint32_t j = 0; rc == 0 && j < list->nvalues; j++) {
                index_range pt;
                point_range(sc, x, list, j, &pt);
                rc = collect_range(sc, x, &pt, &cap, err);
            }
        } else {
            rc = collect_range(sc, x, &r, &cap, err);
        }
        if (rc < 0)
            return -1;
        if (rc > 0) {                    /* too many rows: scan instead */
            for (uint32_t i = 0; i < spec->npreds; i++)
                if (spec->preds[i].col == x->col)
                    spec->preds[i].use = LT_PUSH_UNUSED;
            free(sc->keys);
            sc->keys = NULL;
            sc->nkeys = 0;
            return 0;
        }
        if (sc->keys == NULL) {
            sc->keys = malloc(sizeof *sc->keys);
            if (sc->keys == NULL)
                return lt_error_set(err, "HY001", "out of memory");
        }
        qsort(sc->keys, sc->nkeys, sizeof *sc->keys, cmp_i64);
        uint32_t n = 0;
        for (uint32_t j = 0; j < sc->nkeys; j++)
            if (n == 0 || sc->keys[n - 1] != sc->keys[j])
                sc->keys[n++] = sc->keys[j];
        sc->nkeys = n;
        sc->from_index = true;
        return 0;
    }
    return 0;
}

static int point_cmp_asc(const void *a, const void *b)
{
    return sqlite_key_cmp_val(&((const index_range *)a)->lo, &((const index_range *)b)->lo);
}

static int point_cmp_desc(const void *a, const void *b)
{
    return -point_cmp_asc(a, b);
}

/* A WITHOUT ROWID table: predicates on the leading primary-key column
** become key ranges of its own b-tree, walked in its order (that of a
** scan); an IN list becomes one point each, sorted in that order and
** distinct. */
static int take_pk_seek(lt_scan *sc, const lt_scan_spec *spec, lt_error *err)
{
    const sqlite_seek_index *x = &sc->st->pk_seek;
    if (!sc->st->pk_seekable || x->root < 2)
        return 0;
    index_range r;
    lt_pred *list;
    bool any = seek_preds(sc, spec, x, &r, &list);
    if (!any && list == NULL)
        return 0;
    uint32_t n = list != NULL ? list->nvalues : 1;
    sc->ranges = malloc(n * sizeof *sc->ranges);
    if (sc->ranges == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (list == NULL) {
        sc->ranges[0] = r;
        sc->nranges = 1;
        return 0;
    }
    for (uint32_t j = 0; j < n; j++)
        point_range(sc, x, list, j, &sc->ranges[j]);
    qsort(sc->ranges, n, sizeof *sc->ranges, x->desc ? point_cmp_desc : point_cmp_asc);
    uint32_t m = 0;
    for (uint32_t j = 0; j < n; j++)
        if (m == 0 || sqlite_key_cmp_val(&sc->ranges[m - 1].lo, &sc->ranges[j].lo) != 0)
            sc->ranges[m++] = sc->ranges[j];
    sc->nranges = m;
    return 0;
}

static int sqlite_scan_open(lt_source *base, const lt_scan_spec *spec, lt_scan **out,
                            lt_error *err)
{
    sqlite_source *src = (sqlite_source *)base;
    *out = NULL;
    if (spec->table >= base->ntables)
        return lt_error_set(err, "HY000", "'%s': no table number %u", base->path, spec->table);
    const lt_table *t = &base->tables[spec->table];
    const sqlite_table *st = &src->tables[spec->table];
    if (st->error != NULL)
        return lt_error_set(err, "HY000", "%s", st->error);
    if (t->query != NULL)
        return view_error(base, t, err);
    uint32_t limit = 0;
    for (uint32_t j = 0; j < spec->ncols; j++) {
        uint32_t c = spec->cols[j];
        if (c >= t->ncols)
            return lt_error_set(err, "HY000", "'%s': table '%s' has no column %u", base->path, t->name, c);
        const sqlite_col *col = &st->cols[c];
        if (col->field == SQLITE_FIELD_VIRTUAL && col->expr == NULL)
            return lt_error_set(err, "HY000",
                                "'%s': column '%s' of table '%s' is a VIRTUAL generated column (AS %s) "
                                "whose expression Lector does not compute",
                                base->path, t->cols[c].name, t->name, col->generated);
        for (uint32_t k = 0; k < t->ncols; k++) {
            bool needed = col->field == SQLITE_FIELD_VIRTUAL ? sqlite_expr_uses(col->expr, k) : k == c;
            int32_t f = st->cols[k].field;
            if (needed && f >= 0 && (uint32_t)f + 1 > limit)
                limit = (uint32_t)f + 1;
        }
    }
    lt_scan *sc = calloc(1, sizeof *sc);
    if (sc == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    sc->src = src;
    sc->st = st;
    sc->table = t;
    sc->spec = spec;
    sc->limit = limit;
    sc->serials = malloc((limit ? limit : 1) * sizeof *sc->serials);
    sc->offsets = malloc((limit ? limit : 1) * sizeof *sc->offsets);
    if (sc->serials == NULL || sc->offsets == NULL) {
        scan_free(sc);
        return lt_error_set(err, "HY001", "out of memory");
    }
    take_rowid_range(sc, spec);
    if (take_index_seek(sc, spec, err) != 0 || take_pk_seek(sc, spec, err) != 0 ||
        sqlite_cursor_open(&sc->cur, &src->db, st->root, st->without_rowid, err) != 0 ||
        (sc->ranged && sc->keys == NULL && sc->lo > INT64_MIN &&
         sqlite_cursor_seek(&sc->cur, sc->lo, err) != 0)) {
        scan_free(sc);
        return -1;
    }
    sc->done = sc->ranged && sc->lo > sc->hi;
    *out = sc;
    return 0;
}

static int bad_record(const lt_scan *sc, const sqlite_cell *cell, lt_error *err)
{
    return lt_error_set(err, "HY000", "'%s' is corrupt: page %u: bad record in table '%s'",
                        sc->src->db.path, cell->pgno, sc->table->name);
}

/* One row being read: its record, how much of it is at hand. */
typedef struct row_ctx {
    lt_scan *sc;
    const sqlite_cell *cell;
    const uint8_t *rec;
    uint32_t nf;               /* fields walked */
    bool transient;            /* rec is the scan's buffer */
    lt_error *err;
} row_ctx;

/* The value of table column `c` (not a VIRTUAL one) in the row. */
static int column_value(void *ctx, uint32_t c, sqlite_val *v)
{
    row_ctx *r = ctx;
    const lt_scan *sc = r->sc;
    const sqlite_col *col = &sc->st->cols[c];
    int32_t f = col->field;
    if (f == SQLITE_FIELD_ROWID) {
        memset(v, 0, sizeof *v);
        v->cls = SQLITE_INT;
        v->i = r->cell->rowid;
    } else if (f >= 0 && (uint32_t)f < r->nf) {
        sqlite_decode(sc->serials[f], r->rec + sc->offsets[f], sc->src->db.encoding, v);
        v->transient = r->transient;
    } else if (f >= 0 && col->has_default) {
        /* a row written before ALTER TABLE ADD COLUMN */
        if (!col->default_ok)
            return lt_error_set(r->err, "HY000",
                                "'%s': a row of table '%s' predates column '%s', whose DEFAULT "
                                "is an expression Lector does not evaluate",
                                sc->src->db.path, sc->table->name, sc->table->cols[c].name);
        *v = col->dflt;
    } else if (f >= 0) {
        memset(v, 0, sizeof *v);
        v->cls = SQLITE_NULL;
    } else {
        return lt_error_set(r->err, "HY000", "'%s': column '%s' of table '%s' cannot be read",
                            sc->src->db.path, sc->table->cols[c].name, sc->table->name);
    }
    return 0;
}

/* Decode the wanted columns of one cell into row `row`. */
static int read_row(lt_scan *sc, const sqlite_cell *cell, lt_batch *batch,
                    uint32_t row, lt_error *err)
{
    const sqlite_db *db = &sc->src->db;
    row_ctx r = {sc, cell, cell->local, 0, false, err};
    uint32_t have = cell->local_len, len = cell->payload_len;
    if (sc->limit > 0 && len > 0) {
        uint64_t hsize;
        if (sqlite_varint(r.rec, r.rec + have, &hsize) == 0 || hsize > len)
            return bad_record(sc, cell, err);
        if (hsize > have) {
            if (sqlite_payload_read(db, cell, (uint32_t)hsize, &sc->buf, err) != 0)
                return -1;
            r.rec = sc->buf.p;
            have = (uint32_t)hsize;
            r.transient = true;
        }
        uint32_t hlen;
        if (sqlite_record_header(r.rec, have, len, sc->limit, sc->serials, sc->offsets, &r.nf,
                                 &hlen) != 0)
            return bad_record(sc, cell, err);
        uint32_t need = r.nf ? sc->offsets[r.nf - 1] +
                                   (uint32_t)sqlite_serial_size(sc->serials[r.nf - 1])
                             : hlen;
        if (need > have) {
            if (sqlite_payload_read(db, cell, need, &sc->buf, err) != 0)
                return -1;
            r.rec = sc->buf.p;
            have = need;
            r.transient = true;
        }
    }
    const lt_scan_spec *spec = sc->spec;
    for (uint32_t j = 0; j < spec->ncols; j++) {
        const sqlite_col *col = &sc->st->cols[spec->cols[j]];
        sqlite_val v;
        if (col->field == SQLITE_FIELD_VIRTUAL) {
            if (sqlite_expr_eval(col->expr, col->affinity, column_value, &r, &batch->arena, &v) != 0)
                return lt_error_set(err, "HY000", "'%s': computing column '%s' of table '%s' failed "
                                    "(an error in SQLite too, or out of memory)", db->path,
                                    sc->table->cols[spec->cols[j]].name, sc->table->name);
        } else if (column_value(&r, spec->cols[j], &v) != 0) {
            return -1;
        }
        if (sqlite_put(batch, j, row, &v) != 0)
            return lt_error_set(err, "HY001", "out of memory reading '%s'", db->path);
    }
    return 0;
}

static int check_unchanged(const sqlite_source *src, lt_error *err)
{
    if (src->own_file) {
        if (lt_file_check(&src->file, err) != 0)
            return -1;
        if (src->db.size >= 100 && src->db.wal_pages == NULL &&
            lt_be32(src->db.data + 24) != src->db.change_counter)
            return lt_error_set(err, "HY000",
                                "'%s' changed while Lector was reading it; reconnect to read the new version",
                                src->db.path);
    }
    return 0;
}

/* WITHOUT ROWID key ranges: a seek to each one's start, its rows up to
** its end. */
static int next_in_ranges(lt_scan *sc, sqlite_cell *cell, lt_error *err)
{
    const sqlite_seek_index *x = &sc->st->pk_seek;
    while (sc->rpos < sc->nranges) {
        const index_range *r = &sc->ranges[sc->rpos];
        if (!sc->positioned) {
            if (range_start(sc, &sc->cur, x->root, x->desc, r, err) != 0)
                return -1;
            sc->positioned = true;
        }
        int rc = sqlite_cursor_next(&sc->cur, cell, err);
        if (rc < 0)
            return -1;
        int place = 1;
        if (rc == 1) {
            sqlite_val v;
            if (sqlite_record_first(&sc->src->db, cell, &sc->ibuf, &v, err) != 0)
                return -1;
            place = range_place(r, &v, x->desc);
        }
        if (place == 0)
            return 1;
        if (place > 0) {
            sc->rpos++;
            sc->positioned = false;
        }
    }
    return 0;
}

/* IN list: one seek per key, the row when it is there. */
static int next_listed(lt_scan *sc, sqlite_cell *cell, lt_error *err)
{
    while (sc->kpos < sc->nkeys) {
        int64_t key = sc->keys[sc->kpos++];
        if (key < sc->lo || key > sc->hi)
            continue;
        const sqlite_source *src = sc->src;
        if (sqlite_cursor_open(&sc->cur, &src->db, sc->st->root, false, err) != 0 ||
            sqlite_cursor_seek(&sc->cur, key, err) != 0)
            return -1;
        int r = sqlite_cursor_next(&sc->cur, cell, err);
        if (r < 0)
            return -1;
        if (r == 1 && cell->rowid == key)
            return 1;
        if (sc->from_index)
            return lt_error_set(err, "HY000", "'%s' is corrupt: an index of table '%s' names "
                                "rowid %lld, which the table lacks", src->db.path,
                                sc->table->name, (long long)key);
    }
    return 0;
}

static int sqlite_scan_next(lt_scan *sc, lt_batch *batch, lt_error *err)
{
    lt_batch_reset(batch);
    sqlite_batch_untag(batch);
    if (sc->done)
        return 0;
    if (check_unchanged(sc->src, err) != 0)
        return -1;
    while (batch->count < batch->capacity) {
        sqlite_cell cell;
        int r = sc->keys != NULL     ? next_listed(sc, &cell, err)
                : sc->ranges != NULL ? next_in_ranges(sc, &cell, err)
                                     : sqlite_cursor_next(&sc->cur, &cell, err);
        if (r < 0)
            return -1;
        if (r == 0) {
            sc->done = true;
            break;
        }
        if (sc->ranged) {
            /* rows come in rowid order: past hi nothing more matches */
            if (cell.rowid > sc->hi) {
                sc->done = true;
                break;
            }
            if (cell.rowid < sc->lo)
                continue;
        }
        if (read_row(sc, &cell, batch, batch->count, err) != 0)
            return -1;
        batch->count++;
    }
    return 0;
}

static void sqlite_scan_close(lt_scan *sc)
{
    scan_free(sc);
}

static int64_t sqlite_count_rows(lt_source *base, uint32_t table, lt_error *err)
{
    sqlite_source *src = (sqlite_source *)base;
    if (table >= base->ntables)
        return -1;
    const sqlite_table *st = &src->tables[table];
    if (st->error != NULL) {
        lt_error_set(err, "HY000", "%s", st->error);
        return -1;
    }
    if (base->tables[table].query != NULL) {
        view_error(base, &base->tables[table], err);
        return -1;
    }
    return sqlite_btree_count(&src->db, st->root, st->without_rowid, err);
}

const lt_reader lt_sqlite_reader = {
    .name = "sqlite",
    .probe = probe,
    .open = sqlite_open,
    .close = sqlite_close,
    .scan_open = sqlite_scan_open,
    .scan_next = sqlite_scan_next,
    .scan_close = sqlite_scan_close,
    .count_rows = sqlite_count_rows,
};
