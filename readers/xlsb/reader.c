/*
** reader.c — the .xlsb reader's lt_reader: probing, opening a file or a
** buffer (ZIP directory -> relationships -> workbook, styles and shared
** strings -> the type scan of every worksheet), and scans that decode only
** the wanted columns.
**
** A file's worksheets are typed on first use (reader.h describe): a
** connection that reads one sheet, or none (SELECT 1, SQLTables), does not
** inflate and walk every sheet at connect.  A buffer's (the tests', the
** fuzzers') are typed at open.  Past that the source is read-only (the ZIP
** directory, shared strings and formats), so scans on several threads need
** no lock.
** Each scan reads the cells its sheet's type scan kept (wbgrid.h
** lt_wb_cells), or, for a sheet past the kept cells' budget and for ranges,
** streams the sheet part again (stream.c): a cell read past the end of a
** batch is kept for the next one.
*/
#include "xlsb.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/endian.h"
#include "xlsb_internal.h"

static const uint8_t cfb_signature[8] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};

struct lt_scan {
    xlsb_source *src;
    const xlsb_sheet *sheet;
    lt_wb_columns cols;      /* table column -> batch columns */
    xlsb_cells it;
    bool started;            /* `it` holds a stream to end */
    lt_wb_cells_pos kept;    /* or: the sheet's kept cells are read (sheet->kept) */
    xlsb_cell pending;       /* read, but of a later batch's row */
    bool has_pending;
    char *pending_text;      /* its text, kept past the batch arena's reset */
    size_t pending_cap;
    uint32_t next_row;       /* sheet row of the batch's first row */
    bool done;
};

/* ---- probing ---------------------------------------------------------------- */

static bool has_xlsb_extension(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 5 && strcasecmp(path + n - 5, ".xlsb") == 0;
}

static int xlsb_probe(const uint8_t *head, size_t len, const char *path)
{
    bool ext = has_xlsb_extension(path);
    if (len >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4)
        return ext ? 100 : 30;
    /* An encrypted .xlsb is a compound file: say so rather than let the
    ** .xls reader call it a broken workbook. */
    if (ext && len >= 8 && memcmp(head, cfb_signature, 8) == 0)
        return 90;
    return 0;
}

/* ---- open / close ----------------------------------------------------------- */

static void xlsb_close(lt_source *base)
{
    xlsb_source *src = (xlsb_source *)base;
    if (src == NULL)
        return;
    for (uint32_t i = 0; src->extra_sheets != NULL && i < src->extra.n; i++)
        free(src->extra_sheets[i].part);     /* names belong to the tables */
    free(src->extra_sheets);
    lt_wb_tables_free(base, &src->extra);
    lt_wb_extra_destroy(&src->extra);
    lt_wb_lazy_destroy(&src->lazy);
    free(base->path);
    for (uint32_t i = 0; i < src->nsheets; i++) {
        free(src->sheets[i].name);
        free(src->sheets[i].part);
        lt_wb_cells_free(&src->sheets[i].cells);
    }
    free(src->sheets);
    free(src->workbook_part);
    free(src->sst_part);
    free(src->styles_part);
    free(src->xf_fmt);
    free(src->sst_text);
    free(src->sst_off);
    free(src->sst_units);
    free(src->label);
    xlsb_zip_close(&src->zip);
    free(src->decrypted);
    if (src->mapped)
        lt_unmap_file(&src->file);
    free(src);
}

/* The type scan of listed table `table` (lt_wb_describe). */
static int scan_listed(lt_source *base, uint32_t table, lt_table *out, lt_error *err)
{
    xlsb_source *src = (xlsb_source *)base;
    return xlsb_sheet_scan(src, &src->sheets[table], out, true, err);
}

static int xlsb_describe(lt_source *base, uint32_t table, lt_error *err)
{
    xlsb_source *src = (xlsb_source *)base;
    return lt_wb_describe(base, &src->lazy, table, scan_listed, err);
}

/* A listed table named, its columns left to xlsb_describe. */
static int name_table(const xlsb_sheet *sh, lt_table *tab)
{
    tab->name = lt_wb_table_name(sh->name, sh->is_name ? "" : "$");
    tab->kind = "TABLE";
    tab->row_estimate = -1;
    return tab->name != NULL ? 0 : -1;
}

/* One table per worksheet, then one per defined name; a sheet that cannot
** be read is listed with its error, so the rest of the workbook stays
** usable.  `lazy`: only named, typed by xlsb_describe. */
static int load_tables(xlsb_source *src, bool lazy, lt_error *err)
{
    lt_source *base = &src->base;
    base->tables = calloc(src->nsheets ? src->nsheets : 1, sizeof *base->tables);
    if (base->tables == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    for (uint32_t i = 0; i < src->nsheets; i++) {
        xlsb_sheet *sh = &src->sheets[i];
        lt_table *tab = &base->tables[i];
        lt_error e;
        lt_error_clear(&e);
        base->ntables = i + 1;
        if (lazy) {
            if (name_table(sh, tab) != 0)
                return lt_error_set(err, "HY001", "out of memory");
            continue;
        }
        int rc = xlsb_sheet_scan(src, sh, tab, true, &e);
        if (rc == 0)
            continue;
        if (strcmp(e.sqlstate, "HY001") == 0) {
            *err = e;
            return -1;
        }
        lt_table_clear(tab);
        memset(tab, 0, sizeof *tab);
        tab->name = lt_wb_table_name(sh->name, sh->is_name ? "" : "$");
        tab->error = strdup(e.message);
        if (tab->name == NULL || tab->error == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        tab->kind = "TABLE";
        tab->row_estimate = -1;
    }
    if (lazy && lt_wb_lazy_init(&src->lazy, base->ntables, err) != 0)
        return -1;
    src->extra_sheets = calloc(LT_WB_EXTRA_TABLES, sizeof *src->extra_sheets);
    if (src->extra_sheets == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    return lt_wb_extra_reserve(base, err);
}

static int open_bytes(xlsb_source *src, const uint8_t *data, size_t size, const lt_options *opts,
                      bool lazy, lt_error *err)
{
    src->hdr = lt_options_bool(opts, "HDR", true);
    if (lt_wb_type_rows(opts, &src->type_rows, err) != 0 ||
        lt_wb_cells_budget(opts, &src->kept_budget, err) != 0)
        return -1;
    if (size >= 8 && memcmp(data, cfb_signature, 8) == 0) {
        /* Encrypted: the package inside, decrypted once (crypt.c). */
        if (xlsb_decrypt(data, size, src->label, lt_wb_password(opts), &src->decrypted, &size, err) != 0)
            return -1;
        data = src->decrypted;
    }
    if (xlsb_zip_open(&src->zip, data, size, src->label, err) != 0 || xlsb_workbook_parse(src, err) != 0 ||
        xlsb_styles_parse(src, err) != 0 || xlsb_sst_parse(src, err) != 0)
        return -1;
    return load_tables(src, lazy, err);
}

static xlsb_source *source_new(const char *path)
{
    xlsb_source *src = calloc(1, sizeof *src);
    if (src == NULL)
        return NULL;
    lt_wb_extra_init(&src->extra);
    src->base.reader = &lt_xlsb_reader;
    src->base.path = strdup(path);
    src->label = strdup(path);
    if (src->base.path == NULL || src->label == NULL) {
        xlsb_close(&src->base);
        return NULL;
    }
    return src;
}

static int xlsb_open(const char *path, const lt_options *opts, lt_source **out, lt_error *err)
{
    *out = NULL;
    xlsb_source *src = source_new(path);
    if (src == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (lt_map_file(path, &src->file, err) != 0) {
        xlsb_close(&src->base);
        return -1;
    }
    src->mapped = true;
    if (open_bytes(src, src->file.data, src->file.size, opts, true, err) != 0) {
        xlsb_close(&src->base);
        return -1;
    }
    *out = &src->base;
    return 0;
}

int lt_xlsb_open_memory(const uint8_t *data, size_t size, const char *name, const lt_options *opts,
                        lt_source **out, lt_error *err)
{
    *out = NULL;
    xlsb_source *src = source_new(name ? name : "memory");
    if (src == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    if (open_bytes(src, data, size, opts, false, err) != 0) {
        xlsb_close(&src->base);
        return -1;
    }
    *out = &src->base;
    return 0;
}

/* ---- scans -------------------------------------------------------------------- */

static void xlsb_scan_close(lt_scan *scan)
{
    if (scan == NULL)
        return;
    if (scan->started)
        xlsb_cells_end(&scan->it);
    free(scan->pending_text);
    lt_wb_columns_free(&scan->cols);
    free(scan);
}

static int xlsb_scan_open(lt_source *base, const lt_scan_spec *spec, lt_scan **out, lt_error *err)
{
    xlsb_source *src = (xlsb_source *)base;
    *out = NULL;
    lt_wb_columns cols;
    if (lt_wb_columns_open(&cols, base, src->label, spec, err) != 0)
        return -1;
    lt_scan *scan = calloc(1, sizeof *scan);
    if (scan == NULL) {
        lt_wb_columns_free(&cols);
        return lt_error_set(err, "HY001", "out of memory");
    }
    scan->src = src;
    scan->sheet = spec->table < base->ntables ? &src->sheets[spec->table]
                                              : &src->extra_sheets[spec->table - base->ntables];
    scan->cols = cols;
    const xlsb_sheet *sh = scan->sheet;
    scan->next_row = sh->data_row;
    scan->done = sh->empty || sh->data_row > sh->last_row;
    if (sh->kept)
        lt_wb_cells_begin(&sh->cells, &scan->kept);
    else if (!scan->done) {
        scan->started = true;
        if (xlsb_cells_start(&scan->it, src, sh, NULL, err) != 0) {
            xlsb_scan_close(scan);
            return -1;
        }
    }
    *out = scan;
    return 0;
}

/* Copy a pending cell's text out of the batch arena, which the next
** batch resets. */
static int keep_text(lt_scan *scan, xlsb_cell *c)
{
    if (c->v.len > scan->pending_cap) {
        char *p = realloc(scan->pending_text, c->v.len);
        if (p == NULL)
            return -1;
        scan->pending_text = p;
        scan->pending_cap = c->v.len;
    }
    memcpy(scan->pending_text, c->v.text, c->v.len);
    c->v.text = scan->pending_text;
    return 0;
}

/* A batch from the kept cells: no inflating, no decoding, and their texts
** live as long as the source. */
static int next_kept(lt_scan *scan, lt_batch *batch, uint32_t n, lt_error *err)
{
    const xlsb_sheet *sh = scan->sheet;
    uint32_t lo = scan->next_row, hi = scan->next_row + n;
    for (;;) {
        xlsb_cell c;
        lt_wb_cells_pos at = scan->kept;
        if (!lt_wb_cells_next(&scan->kept, &c.row, &c.col, &c.v))
            break;
        if (c.row < lo)
            continue;
        if (c.row >= hi) {
            scan->kept = at;    /* a later batch's */
            break;
        }
        uint32_t col = c.col - sh->first_col;
        if (c.col < sh->first_col || col >= scan->cols.ncols)
            continue;
        if (lt_wb_columns_store(&scan->cols, batch, col, c.row - lo, &c.v, scan->src->date1904, err) != 0)
            return -1;
    }
    batch->count = n;
    scan->next_row = hi;
    scan->done = hi > sh->last_row;
    return 0;
}

static int xlsb_scan_next(lt_scan *scan, lt_batch *batch, lt_error *err)
{
    lt_batch_reset(batch);
    if (scan->done || batch->capacity == 0)
        return 0;
    xlsb_source *src = scan->src;
    const xlsb_sheet *sh = scan->sheet;
    uint32_t n = lt_wb_batch_rows(batch, scan->next_row, sh->last_row);
    if (sh->kept)
        return next_kept(scan, batch, n, err);
    scan->it.arena = &batch->arena;
    uint32_t lo = scan->next_row, hi = scan->next_row + n;
    for (;;) {
        xlsb_cell c;
        if (scan->has_pending) {
            /* Its inline text lived in the previous batch's arena. */
            c = scan->pending;
            scan->has_pending = false;
        } else {
            int r = xlsb_cells_next(&scan->it, &c, err);
            if (r < 0)
                return -1;
            if (r == 0)
                break;
        }
        if (c.row < lo)
            continue;
        if (c.row >= hi) {
            if (c.v.kind == LT_WB_TEXT && c.v.len > 0 && keep_text(scan, &c) != 0)
                return lt_error_set(err, "HY001", "out of memory");
            scan->pending = c;
            scan->has_pending = true;
            break;
        }
        uint32_t col = c.col - sh->first_col;
        if (c.col < sh->first_col || col >= scan->cols.ncols)
            continue;
        if (c.v.kind == LT_WB_TEXT && c.v.len > 0 && c.v.text == scan->pending_text &&
            (c.v.text = lt_arena_strndup(&batch->arena, c.v.text, c.v.len)) == NULL)
            return lt_error_set(err, "HY001", "out of memory");
        if (lt_wb_columns_store(&scan->cols, batch, col, c.row - lo, &c.v, src->date1904, err) != 0)
            return -1;
    }
    batch->count = n;
    scan->next_row = hi;
    scan->done = hi > sh->last_row;
    return 0;
}

/* ---- ranges made on demand ---------------------------------------------------- */

static int64_t find_worksheet(lt_source *base, const char *name, size_t len)
{
    const xlsb_source *src = (const xlsb_source *)base;
    for (uint32_t i = 0; i < src->nsheets; i++) {
        const xlsb_sheet *sh = &src->sheets[i];
        if (!sh->is_name && strncasecmp(sh->name, name, len) == 0 && sh->name[len] == '\0')
            return i;
    }
    return -1;
}

static int make_range(lt_source *base, uint32_t slot, uint32_t sheet, const lt_wb_rect *r,
                      const char *name, lt_error *err)
{
    xlsb_source *src = (xlsb_source *)base;
    /* A sheet typed on first use says here whether it can be read. */
    if (sheet < base->ntables && (xlsb_describe(base, sheet, err) != 0 || base->tables[sheet].error != NULL))
        return base->tables[sheet].error != NULL ? lt_error_set(err, "HY000", "%s", base->tables[sheet].error) : -1;
    xlsb_sheet *sh = &src->extra_sheets[slot - base->ntables];
    memset(sh, 0, sizeof *sh);
    sh->name = (char *)name;
    sh->part = strdup(src->sheets[sheet].part);
    if (sh->part == NULL)
        return lt_error_set(err, "HY001", "out of memory");
    sh->visibility = src->sheets[sheet].visibility;
    sh->tab = UINT32_MAX;
    sh->is_name = true;
    sh->r0 = r->r0;
    sh->r1 = r->r1;
    sh->c0 = r->c0;
    sh->c1 = r->c1;
    lt_table *tab = &base->tables[slot];
    if (xlsb_sheet_scan(src, sh, tab, false, err) != 0) {
        free(sh->part);
        memset(sh, 0, sizeof *sh);
        return -1;
    }
    sh->name = tab->name;   /* for messages: lives as long as the table */
    return 0;
}

static const lt_wb_extra_ops xlsb_extra_ops = {
    .max_row = XLSB_MAX_ROW,
    .max_col = XLSB_MAX_COL,
    .find_sheet = find_worksheet,
    .make = make_range,
};

static int xlsb_find_extra(lt_source *base, const char *name, size_t len, uint32_t *table, lt_error *err)
{
    xlsb_source *src = (xlsb_source *)base;
    return lt_wb_find_extra(base, &src->extra, &xlsb_extra_ops, name, len, table, err);
}

const lt_reader lt_xlsb_reader = {
    .name = "xlsb",
    .probe = xlsb_probe,
    .open = xlsb_open,
    .close = xlsb_close,
    .scan_open = xlsb_scan_open,
    .scan_next = xlsb_scan_next,
    .scan_close = xlsb_scan_close,
    .count_rows = lt_wb_count_rows,
    .find_extra = xlsb_find_extra,
    .describe = xlsb_describe,
};
