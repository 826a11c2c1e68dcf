/*
** reader.c — the Access reader's lt_reader: probing, opening, scans, count.
**
** Opening maps the file read-only, checks page 0 (version, password,
** encryption; Jet 3/Jet 4 encoded pages are decoded into a private copy)
** and reads MSysObjects.  A scan walks the table's data pages in page order
** and decodes only the wanted columns of each live row; memo and OLE chains
** are followed only for wanted columns.  Text and binary already right in
** the file are handed out in place; decoded text goes to the batch arena.
*/
#include "access_internal.h"

#include "../common/endian.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct lt_scan {
    access_source *src;
    const mdb_table *mt;
    const lt_table *table;
    const lt_scan_spec *spec;
    mdb_cursor cur;
    mdb_decoder dec;
    mdb_row row;
    bool done;
    /* a followed link: the scan of the target table */
    lt_source *inner_src;
    lt_scan *inner;
    lt_scan_spec inner_spec;
};

static bool has_suffix(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n >= e && strcasecmp(path + n - e, ext) == 0;
}

static int probe(const uint8_t *head, size_t len, const char *path)
{
    static const uint8_t magic[4] = {0x00, 0x01, 0x00, 0x00};
    if (len >= 20 && memcmp(head, magic, 4) == 0 &&
        (memcmp(head + 4, "Standard Jet DB", 16) == 0 || memcmp(head + 4, "Standard ACE DB", 16) == 0))
        return 100;
    /* Claim damaged .mdb/.accdb files weakly, so that opening them says
    ** what is wrong with them rather than "not a format Lector reads". */
    if (len > 0 && path != NULL && (has_suffix(path, ".mdb") || has_suffix(path, ".accdb")))
        return 5;
    return 0;
}

static void source_free(access_source *s)
{
    if (s == NULL)
        return;
    mdb_catalog_free(s);
    mdb_db_free(&s->db);
    if (s->own_file)
        lt_unmap_file(&s->file);
    lt_mutex_destroy(&s->lock);
    free(s->base.path);
    free(s);
}

static void access_close(lt_source *base)
{
    source_free((access_source *)base);
}

static access_source *source_new(const char *name)
{
    access_source *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    lt_mutex_init(&s->lock);
    s->base.reader = &lt_access_reader;
    /* Access compares text ignoring case and takes *, ?, # in LIKE */
    s->base.dialect = LT_DIALECT_ACCESS;
    s->base.path = strdup(name);
    if (s->base.path == NULL) {
        source_free(s);
        return NULL;
    }
    return s;
}

static int open_bytes(access_source *s, const uint8_t *data, size_t size, const lt_options *opts,
                      lt_error *err)
{
    if (mdb_header_parse(&s->db, s->base.path, data, size, opts, err) != 0)
        return -1;
    s->opts = opts;
    int rc = mdb_catalog_load(s, err);
    s->opts = NULL;
    return rc;
}

static int open_file(const char *path, const lt_options *opts, int depth, lt_source **out,
                     lt_error *err)
{
    *out = NULL;
    access_source *s = source_new(path);
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory opening '%s'", path);
    s->depth = depth;
    if (lt_map_file(path, &s->file, err) != 0) {
        source_free(s);
        return -1;
    }
    s->own_file = true;
    if (s->file.data == NULL) {
        source_free(s);
        return lt_error_set(err, "HY000", "'%s' is empty, not an Access database", path);
    }
    if (open_bytes(s, s->file.data, s->file.size, opts, err) != 0) {
        source_free(s);
        return -1;
    }
    *out = &s->base;
    return 0;
}

static int access_open(const char *path, const lt_options *opts, lt_source **out, lt_error *err)
{
    return open_file(path, opts, 0, out, err);
}

int mdb_open_linked(const char *path, const lt_options *opts, int depth, lt_source **out,
                    lt_error *err)
{
    return open_file(path, opts, depth, out, err);
}

int lt_access_open_memory(const uint8_t *data, size_t len, const char *name,
                          const lt_options *opts, lt_source **out, lt_error *err)
{
    *out = NULL;
    access_source *s = source_new(name ? name : "memory");
    if (s == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (data == NULL || len == 0) {
        lt_error_set(err, "HY000", "'%s' is empty, not an Access database", s->base.path);
        source_free(s);
        return -1;
    }
    if (open_bytes(s, data, len, opts, err) != 0) {
        source_free(s);
        return -1;
    }
    *out = &s->base;
    return 0;
}

/* ---- what the first scan or count of a table reads -------------------------- */

/* The pages table `table`'s usage map lists, read once and kept: opening the
** source reads no user table's map (statements may share the source, so
** the first reader fills them in under the lock). */
static int table_pages(access_source *src, uint32_t table, const uint32_t **pages,
                       uint32_t *n, lt_error *err)
{
    mdb_table *mt = &src->mtables[table];
    int rc = 0;
    lt_mutex_lock(&src->lock);
    if (!mt->pages_read) {
        rc = mdb_usage_pages(&src->db, mt->usage_map, &mt->pages, &mt->npages, err);
        mt->pages_read = rc == 0;
    }
    *pages = mt->pages;
    *n = mt->npages;
    lt_mutex_unlock(&src->lock);
    return rc;
}

/* ---- scans ------------------------------------------------------------------- */

static void scan_free(lt_scan *sc)
{
    if (sc == NULL)
        return;
    if (sc->inner != NULL)
        sc->inner_src->reader->scan_close(sc->inner);
    mdb_cursor_close(&sc->cur);
    mdb_decoder_free(&sc->dec);
    free(sc);
}

/* The table's own error (views, links, unreadable definitions), if any. */
static int table_usable(const access_source *src, uint32_t table, lt_error *err)
{
    if (table >= src->base.ntables)
        return lt_error_set(err, "HY000", "'%s': no table number %u", src->base.path, table);
    const lt_table *t = &src->base.tables[table];
    if (t->error != NULL)
        return lt_error_set(err, "HY000", "%s", t->error);
    if (t->query != NULL)
        return lt_error_set(err, "HY000", "'%s': '%s' is a saved query: the SQL engine runs it, "
                            "a reader cannot scan it", src->base.path, t->name);
    return 0;
}

static int access_scan_open(lt_source *base, const lt_scan_spec *spec, lt_scan **out,
                            lt_error *err)
{
    access_source *src = (access_source *)base;
    *out = NULL;
    if (table_usable(src, spec->table, err) != 0)
        return -1;
    const lt_table *t = &base->tables[spec->table];
    for (uint32_t j = 0; j < spec->ncols; j++)
        if (spec->cols[j] >= t->ncols)
            return lt_error_set(err, "HY000", "'%s': table '%s' has no column %u", base->path,
                                t->name, spec->cols[j]);
    for (uint32_t i = 0; i < spec->npreds; i++)
        spec->preds[i].use = LT_PUSH_UNUSED;
    lt_scan *sc = calloc(1, sizeof *sc);
    if (sc == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (src->links != NULL && src->links[spec->table] != NULL) {
        sc->inner_src = src->links[spec->table];
        sc->inner_spec = *spec;
        sc->inner_spec.table = src->link_tables[spec->table];
        if (sc->inner_src->reader->scan_open(sc->inner_src, &sc->inner_spec, &sc->inner, err) != 0) {
            scan_free(sc);
            return -1;
        }
        *out = sc;
        return 0;
    }
    sc->src = src;
    sc->mt = &src->mtables[spec->table];
    sc->table = t;
    sc->spec = spec;
    sc->dec.db = &src->db;
    sc->dec.mt = sc->mt;
    sc->dec.table = t;
    const uint32_t *pages;
    uint32_t npages;
    if (table_pages(src, spec->table, &pages, &npages, err) != 0) {
        scan_free(sc);
        return -1;
    }
    mdb_cursor_start(&sc->cur, &src->db, sc->mt->tdef_page, pages, npages);
    *out = sc;
    return 0;
}

/* Store a decoded value into row `row` of vector `v`. */
static int put(lt_vector *v, uint32_t row, const lt_value *val)
{
    if (val->type == LT_NULL) {
        v->nulls[row] = 1;
        return 0;
    }
    if (val->type != v->type)
        return -1;
    v->nulls[row] = 0;
    switch (v->type) {
    case LT_BOOL: v->v.b[row] = val->u.b; break;
    case LT_INT64: case LT_TIME: case LT_TIMESTAMP: v->v.i64[row] = val->u.i64; break;
    case LT_DOUBLE: v->v.f64[row] = val->u.f64; break;
    case LT_DECIMAL: v->v.dec[row] = val->u.dec; break;
    case LT_TEXT: case LT_BINARY: v->v.bytes[row] = val->u.bytes; break;
    case LT_GUID: v->v.guid[row] = val->u.guid; break;
    case LT_DATE: v->v.date[row] = val->u.date; break;
    case LT_NULL: break;
    }
    return 0;
}

static int read_row(lt_scan *sc, lt_batch *batch, uint32_t row, lt_error *err)
{
    const mdb_db *db = &sc->src->db;
    if (mdb_row_crack(db, sc->mt, &sc->row, err) != 0)
        return -1;
    const lt_scan_spec *spec = sc->spec;
    for (uint32_t j = 0; j < spec->ncols; j++) {
        lt_value v;
        if (mdb_value(&sc->dec, &sc->row, spec->cols[j], &v, err) != 0)
            return -1;
        if (put(&batch->cols[j], row, &v) != 0)
            return lt_error_set(err, "HY000", "'%s': column '%s' of table '%s' was asked for as another type",
                                db->path, sc->table->cols[spec->cols[j]].name, sc->table->name);
    }
    return 0;
}

static int access_scan_next(lt_scan *sc, lt_batch *batch, lt_error *err)
{
    if (sc->inner != NULL)
        return sc->inner_src->reader->scan_next(sc->inner, batch, err);
    lt_batch_reset(batch);
    if (sc->done)
        return 0;
    if (sc->src->own_file && lt_file_check(&sc->src->file, err) != 0)
        return -1;
    sc->dec.arena = &batch->arena;
    while (batch->count < batch->capacity) {
        int r = mdb_cursor_next(&sc->cur, &sc->row, err);
        if (r < 0)
            return -1;
        if (r == 0) {
            sc->done = true;
            break;
        }
        if (read_row(sc, batch, batch->count, err) != 0)
            return -1;
        batch->count++;
    }
    return 0;
}

static void access_scan_close(lt_scan *sc)
{
    scan_free(sc);
}

/* COUNT(*): the live row slots of the table's pages, nothing decoded, counted
** once and kept.  The TDEF's row count is not taken on trust: a file whose
** writer did not keep it (or a damaged one) would answer a count that a
** scan does not return, and telling a stale count from a right one needs
** the slots anyway.  Reading them costs only the slot tables at the top of
** each page. */
static int64_t access_count_rows(lt_source *base, uint32_t table, lt_error *err)
{
    access_source *src = (access_source *)base;
    if (table_usable(src, table, err) != 0)
        return -1;
    if (src->links != NULL && src->links[table] != NULL)
        return src->links[table]->reader->count_rows(src->links[table], src->link_tables[table], err);
    mdb_table *mt = &src->mtables[table];
    lt_mutex_lock(&src->lock);
    bool counted = mt->counted;
    int64_t n = mt->live_rows;
    lt_mutex_unlock(&src->lock);
    if (counted)
        return n;
    const uint32_t *pages;
    uint32_t npages;
    if (table_pages(src, table, &pages, &npages, err) != 0)
        return -1;
    mdb_cursor cur;
    mdb_cursor_start(&cur, &src->db, mt->tdef_page, pages, npages);
    n = mdb_cursor_count(&cur, err);
    mdb_cursor_close(&cur);
    if (n < 0)
        return -1;
    lt_mutex_lock(&src->lock);
    mt->live_rows = n;
    mt->counted = true;
    lt_mutex_unlock(&src->lock);
    return n;
}

const lt_reader lt_access_reader = {
    .name = "access",
    .probe = probe,
    .open = access_open,
    .close = access_close,
    .scan_open = access_scan_open,
    .scan_next = access_scan_next,
    .scan_close = access_scan_close,
    .count_rows = access_count_rows,
};
